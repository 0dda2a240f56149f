/**
 * Runs of other users and other sources in the same organization, as a busy real deployment lists
 * them between the bridge's own: each create through the API brings `perCreate` of them along
 * (fractions accumulate: 0.5 is one every second create), cycling through `sourceTypes`, all
 * created by `userId`. They follow `durationMs` and never take a run script meant for the caller.
 */
import * as z from "zod";
import { SOURCE_TYPES, type SourceType } from "../service/wire.js";

export const OtherRunsSchema = z.strictObject({
  perCreate: z
    .number({ error: "perCreate is required: how many runs of others each create brings along (0 turns them off)" })
    .min(0, { error: "perCreate must be 0 or more" })
    .max(100, { error: "perCreate must be 100 or less" }),
  sourceTypes: z
    .array(z.enum(SOURCE_TYPES, { error: `sourceTypes lists source types: ${SOURCE_TYPES.join(", ")}` }))
    .min(1, { error: "sourceTypes must list at least one source type" })
    .optional(),
  userId: z.number().int().positive({ error: "userId must be a positive integer" }).optional(),
  durationMs: z.number().positive({ error: "durationMs must be positive (emulated milliseconds)" }).optional(),
});
export type OtherRunsInput = z.infer<typeof OtherRunsSchema>;

export interface OtherRunsSetting {
  perCreate: number;
  sourceTypes: SourceType[];
  userId: number;
  /** Emulated ms; undefined: the default script's duration. */
  durationMs: number | undefined;
}

/** Another user of the organization (the tokens' users count from 1). */
const OTHER_USER_ID = 9_999;
export const NO_OTHER_RUNS: OtherRunsSetting = {
  perCreate: 0,
  sourceTypes: ["GIT_HOST", "CHAT", "API"],
  userId: OTHER_USER_ID,
  durationMs: undefined,
};

/** Throws a RangeError naming every bad field. */
export function resolveOtherRuns(input: OtherRunsInput): OtherRunsSetting {
  const parsed = OtherRunsSchema.safeParse(input);
  if (!parsed.success) {
    throw new RangeError(
      `invalid otherRuns: ${parsed.error.issues.map((i) => `${i.path.join(".") || "otherRuns"}: ${i.message}`).join("; ")}`,
    );
  }
  return {
    perCreate: parsed.data.perCreate,
    sourceTypes: parsed.data.sourceTypes ?? NO_OTHER_RUNS.sourceTypes,
    userId: parsed.data.userId ?? OTHER_USER_ID,
    durationMs: parsed.data.durationMs,
  };
}

/** Counts creates and says which other runs each brings along. */
export class OtherRunsMixer {
  private owed = 0;
  private next = 0;

  constructor(public setting: OtherRunsSetting) {}

  set(setting: OtherRunsSetting): void {
    this.setting = setting;
    this.owed = 0;
  }

  /** The source types of the other runs this create brings along. */
  afterCreate(): SourceType[] {
    this.owed += this.setting.perCreate;
    const due: SourceType[] = [];
    while (this.owed >= 1) {
      this.owed -= 1;
      due.push(this.setting.sourceTypes[this.next++ % this.setting.sourceTypes.length]!);
    }
    return due;
  }
}

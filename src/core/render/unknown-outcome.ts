/**
 * The reply for a create whose outcome is unknown: it was sent, its answer was lost, and the runs
 * list could not settle whether the service made the run. It must not say "could not run" (the
 * agent may be working), and it says where to look and how to go on. Pure.
 */
import { renderKindMarker } from "../markers/write.js";
import { inlineCode } from "../sanitize-output/code.js";
import { renderLink } from "../sanitize-output/links.js";
import { joinMarkdown, md, type SafeMarkdown } from "../sanitize-output/safe-markdown.js";
import { sanitizeInline } from "../sanitize-output/prose.js";
import { linkTarget } from "./pieces.js";

export interface MayHaveStartedInput {
  /** What became of the answer, in public words (lostAnswerInWords in service/errors.ts), or why the call was cut off. */
  what: string;
  /** Why the bridge could not check: "the service does not list runs". */
  why: string;
  /** When the request went out (epoch ms). */
  sentAt: number;
  /** The organization on the service whose runs to look through. */
  orgId: number | null;
  /** The metadata the request carried, to recognise its run by (`bridge_task_id`, `delivery_id`). */
  match: Readonly<Record<string, string>>;
  /** A page on the service where its runs are listed, when the bridge knows one. */
  lookAt?: string | null;
  /** The phrase that asks the agent again in this thread. */
  triggerPhrase: string;
}

export function renderRunMayHaveStarted(input: MayHaveStartedInput): string {
  const what = sanitizeInline(input.what, { maxLength: 300 });
  const why = sanitizeInline(input.why, { maxLength: 300 });
  const when = inlineCode(Number.isFinite(input.sentAt) ? new Date(input.sentAt).toISOString() : "unknown", { maxLength: 40 });
  const ids = Object.entries(input.match).map(
    ([key, value]) => md`${inlineCode(key, { maxLength: 40 })} = ${inlineCode(value, { maxLength: 200 })}`,
  );
  const organization = input.orgId !== null ? md` of organization ${inlineCode(String(input.orgId), { maxLength: 20 })}` : md``;
  const page = linkTarget(input.lookAt);
  const where = page ? renderLink("the Agent Run Service's runs", page) : md`the Agent Run Service's runs`;
  const carrying = ids.length > 0 ? md` whose metadata has ${joinMarkdown(ids, " and ")}` : md``;
  const again = inlineCode(`${input.triggerPhrase.trim() || "/agent"} <what to do>`, { maxLength: 100 });
  const lines: SafeMarkdown[] = [
    md`⏳ **The agent run may have started.** The request to start it was sent to the Agent Run Service, but ${what}, and the bridge could not check whether a run was made: ${why}. The request was not sent again, so that the work is not done twice.`,
    md`- Look through ${where}${organization} for one started around ${when}${carrying}. If it is there, the agent is working or has finished: its result and any pull request are on its page, not in this thread.`,
    md`- If there is none, reply ${again} to try again.`,
  ];
  return `${renderKindMarker("service_error")}\n${joinMarkdown(lines, "\n\n")}`;
}

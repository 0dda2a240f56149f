/**
 * The documentation's reference blocks are generated, never hand-edited: the README's example result
 * from the renderer, and in docs/ the repository configuration table from the config schema, the
 * Action's inputs and outputs from action.yml, the App's settings from its settings parser, its
 * metrics from its registry, the run status classes from the classifier, the decision codes from core's table. `npm run docs` rewrites
 * them; a unit test fails when a page is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { appSettingsTable } from "./docs/app-settings.js";
import { decisionCodesTable } from "./docs/decision-codes.js";
import { metricsTable } from "./docs/metrics.js";
import { renderConfigReference } from "../src/config/index.js";
import { newRunMarker } from "../src/core/markers/write.js";
import { renderResultComment } from "../src/core/render/result.js";
import { digestTrace } from "../src/core/trace.js";
import { knownStatusTable, type RunPhase } from "../src/service/status.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface ActionManifest {
  inputs?: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs?: Record<string, { description?: string }>;
}

const cell = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

function actionTables(): { inputs: string; outputs: string } {
  const manifest = parse(readFileSync(`${ROOT}action.yml`, "utf8")) as ActionManifest;
  const inputs = [
    "| Input | Required | Default | Description |",
    "|---|---|---|---|",
    ...Object.entries(manifest.inputs ?? {}).map(
      ([name, input]) =>
        `| \`${name}\` | ${input.required ? "yes" : "no"} | ${input.default ? `\`${cell(input.default)}\`` : ""} | ${cell(input.description ?? "")} |`,
    ),
  ].join("\n");
  const outputs = [
    "| Output | Description |",
    "|---|---|",
    ...Object.entries(manifest.outputs ?? {}).map(([name, output]) => `| \`${name}\` | ${cell(output.description ?? "")} |`),
  ].join("\n");
  return { inputs, outputs };
}

/** A result comment exactly as the renderer writes it, for a sample run. */
function resultExample(): string {
  const at = Date.UTC(2026, 5, 21, 11, 20, 4);
  const trace = digestTrace(
    [
      { message_type: "PLAN_EVALUATION", thought: "The date test depends on the local time zone." },
      {
        message_type: "ACTION",
        tool_name: "ripgrep_search",
        tool_input: { pattern: "new Date(", path: "test/" },
        tool_output: { matches: [] },
      },
      {
        message_type: "ACTION",
        tool_name: "file_write",
        tool_input: { path: "test/dates.test.ts", content: "…" },
        tool_output: { bytes_written: 812 },
      },
      { message_type: "INITIAL_PR_GENERATION", thought: "Opening the pull request." },
      { message_type: "FINAL_ANSWER", observation: "Pinned the clock in the date tests." },
    ],
    { maxSteps: 5, triggerPhrase: "/agent" },
  );
  const body = renderResultComment({
    marker: newRunMarker({ place: { repository: "octo-org/widgets", thread: 5 }, runId: 1842, orgId: 42, sourceType: "GIT_HOST" }),
    run: {
      id: 1842,
      status: "completed",
      web_url: "https://agents.example.com/runs/1842",
      summary:
        "The date tests used the machine's time zone, so they failed when CI ran near midnight UTC. They now pin the clock and the zone.",
      result: "Opened one pull request; `npm test` passes.",
      git_host_pull_requests: [
        {
          id: 7,
          title: "Pin the clock in the date tests",
          url: "https://github.com/octo-org/widgets/pull/7",
          created_at: null,
          head_branch_name: "agent/run-1842",
        },
      ],
    },
    phase: "succeeded",
    startedAt: at,
    finishedAt: at + 252_000,
    trace,
    triggerPhrase: "/agent",
  });
  // Shown as the reader sees it; the hidden marker line stays (GitHub does not display it).
  return body.trim();
}

/** What the bridge does with each class of run status (every known value is listed by `knownStatusTable`). */
const PHASE_MEANING: Record<RunPhase, string> = {
  in_progress: "still working: the watch goes on (a missing status counts as this too)",
  waiting_for_input: "paused until someone resumes it: reported, with how to answer",
  succeeded: "ended well: result posted, 🚀",
  failed: "ended badly: result posted with the trace's errors, 😕",
  stopped: "stopped or cancelled by someone: reported as such, not as a failure",
  unknown: "",
};

function statusTable(): string {
  const byPhase = new Map<RunPhase, string[]>();
  for (const { status, phase } of knownStatusTable()) byPhase.set(phase, [...(byPhase.get(phase) ?? []), `\`${status}\``]);
  return [
    "| Class | Status values (any letter case) | What the bridge does |",
    "|---|---|---|",
    ...[...byPhase].map(([phase, values]) => `| \`${phase}\` | ${values.join(", ")} | ${PHASE_MEANING[phase]} |`),
    "| `unknown` | any other value | the watch goes on until its deadline; the value is logged once |",
  ].join("\n");
}

/** Each page with generated blocks, and how to build its blocks' contents by name (built on demand: one page's failure is its own). */
export function docSections(): Record<string, () => Record<string, string>> {
  return {
    "README.md": () => ({ "result-example": resultExample() }),
    "docs/action.md": () => {
      const action = actionTables();
      return { "action-inputs": action.inputs, "action-outputs": action.outputs };
    },
    "docs/configuration.md": () => ({ "config-reference": renderConfigReference().trim() }),
    "docs/operations.md": () => ({ "app-settings": appSettingsTable(), metrics: metricsTable() }),
    "docs/client.md": () => ({ "status-classes": statusTable() }),
    "docs/troubleshooting.md": () => ({ "decision-codes": decisionCodesTable() }),
  };
}

/** Replaces the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` in the page `file`. */
export function applySections(file: string, text: string, sections: Record<string, string>): string {
  let out = text;
  for (const [name, content] of Object.entries(sections)) {
    const pattern = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(out)) throw new Error(`${file} has no generated:${name} block`);
    out = out.replace(pattern, (_m, open: string, close: string) => `${open}\n${content}\n${close}`);
  }
  return out;
}

/** A page of the repository by its path from the root. */
export function readDoc(file: string): string {
  return readFileSync(`${ROOT}${file}`, "utf8");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [file, build] of Object.entries(docSections())) {
    writeFileSync(`${ROOT}${file}`, applySections(file, readDoc(file), build()));
    console.log(`${file}: generated blocks updated`);
  }
}

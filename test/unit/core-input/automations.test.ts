import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { detectAutomations, matchesChangedFiles, startedAutomations } from "../../../src/core/automations.js";
import { parseWebhookEvent } from "../../../src/core/events/parse.js";
import type { IssuesBridgeEvent, PullRequestBridgeEvent } from "../../../src/core/events/types.js";
import { newRunMarker } from "../../../src/core/markers/write.js";
import { parseRepoConfig, type RepoConfig } from "../../../src/config/schema.js";
import { issuesOpenedPayload, pullRequestPayload } from "../../helpers/app-payloads.js";
import { self } from "./detections.js";

function config(yaml: string): RepoConfig {
  const parsed = parseRepoConfig(parseYaml(yaml));
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.config;
}

const CONFIG = config(`
automations:
  - { name: bugs, on: issues.opened, prompt: Fix it., labels: [Bug] }
  - { name: any-issue, on: issues.opened, prompt: Triage it. }
  - { name: new-pr, on: pull_request.opened, prompt: Review it., paths: ["src/**"] }
  - { name: ready, on: pull_request.ready_for_review, prompt: Review it now. }
`);

const issue = (opener: string, labels: string[] = []) =>
  parseWebhookEvent("issues", issuesOpenedPayload({ thread: { number: 3, labels }, opener })) as IssuesBridgeEvent;
const pull = (action: "opened" | "ready_for_review", options: { draft?: boolean; fork?: string; opener?: string; sender?: string } = {}) =>
  parseWebhookEvent(
    "pull_request",
    pullRequestPayload({
      action,
      pr: {
        number: 4,
        headRef: "f",
        headSha: "d".repeat(40),
        draft: options.draft ?? false,
        ...(options.fork ? { headRepoFullName: options.fork } : {}),
      },
      opener: options.opener ?? "maintainer",
      ...(options.sender ? { sender: options.sender } : {}),
    }),
  ) as PullRequestBridgeEvent;

const names = (detection: ReturnType<typeof detectAutomations>) =>
  detection.kind === "automations" ? detection.triggers.map((trigger) => trigger.automation.name) : detection.code;

describe("detectAutomations", () => {
  it("every automation of the event whose labels match (case-insensitive), in the file's order, each its own once-key", () => {
    const detection = detectAutomations(issue("maintainer", ["bug"]), CONFIG, self);
    expect(names(detection)).toEqual(["bugs", "any-issue"]);
    expect(detection.kind === "automations" && detection.triggers.map((trigger) => trigger.dedupeKey)).toEqual([
      "automation:bugs:3",
      "automation:any-issue:3",
    ]);
    expect(names(detectAutomations(issue("maintainer"), CONFIG, self))).toEqual(["any-issue"]);
  });

  it("says why none starts: no automation, a bot, a fork, the draft rule", () => {
    expect(names(detectAutomations(issue("maintainer"), config("{}"), self))).toBe("no_automation");
    expect(names(detectAutomations(issue("renovate[bot]"), CONFIG, self))).toBe("automation_by_bot");
    expect(names(detectAutomations(issue("run-bot[bot]"), CONFIG, self))).toBe("automation_by_bot");
    expect(names(detectAutomations(pull("opened", { fork: "someone/widgets" }), CONFIG, self))).toBe("automation_on_fork");
    expect(names(detectAutomations(pull("opened", { draft: true }), CONFIG, self))).toBe("automation_filtered");
    expect(names(detectAutomations(pull("opened"), CONFIG, self))).toEqual(["new-pr"]);
  });

  it("a draft held back by an opened automation (`drafts: false`) starts it when marked ready, as the reason says; `drafts: true` ones started at opened", () => {
    const held = detectAutomations(pull("opened", { draft: true }), CONFIG, self);
    expect(held.kind === "ignore" && held.reason).toContain(
      "new-pr: the pull request is a draft (`drafts: false`): it starts when the pull request is marked ready for review.",
    );
    const ready = detectAutomations(pull("ready_for_review"), CONFIG, self);
    expect(names(ready)).toEqual(["new-pr", "ready"]);
    // The same once-key as at opened: a pull request that already had it (opened ready, then a draft and back) does not get it again.
    expect(ready.kind === "automations" && ready.triggers[0]!.dedupeKey).toBe("automation:new-pr:4");
    const withDrafts = config(`
automations:
  - { name: drafts-too, on: pull_request.opened, prompt: Review it., drafts: true }
`);
    expect(names(detectAutomations(pull("opened", { draft: true }), withDrafts, self))).toEqual(["drafts-too"]);
    expect(names(detectAutomations(pull("ready_for_review"), withDrafts, self))).toBe("no_automation");
  });

  it("ready_for_review answers to the opener and to whoever marked it ready", () => {
    const detection = detectAutomations(pull("ready_for_review", { sender: "reader" }), CONFIG, self);
    expect(detection.kind === "automations" && detection.triggers[0]!.accountable.map((actor) => actor.login)).toEqual([
      "maintainer",
      "reader",
    ]);
    expect(names(detectAutomations(pull("ready_for_review", { sender: "ci[bot]" }), CONFIG, self))).toBe("automation_by_bot");
  });
});

describe("matchesChangedFiles and startedAutomations", () => {
  it("paths match any changed file; no paths match everything", () => {
    const [, , newPr, ready] = CONFIG.automations;
    expect(matchesChangedFiles(newPr!, ["docs/a.md", "src/deep/b.ts"])).toBe(true);
    expect(matchesChangedFiles(newPr!, ["docs/a.md", "srcx/b.ts"])).toBe(false);
    expect(matchesChangedFiles(ready!, [])).toBe(true);
  });

  it("reads the automations started from run markers", () => {
    const markers = [
      { marker: newRunMarker({ place: null, runId: 1, orgId: 1, sourceType: "GIT_HOST", automation: "bugs" }) },
      { marker: newRunMarker({ place: null, runId: 2, orgId: 1, sourceType: "GIT_HOST" }) },
    ];
    expect([...startedAutomations(markers)]).toEqual(["bugs"]);
  });
});

/**
 * A broken `.github/agent-run.yml` is never silent for an event it affects, and stays quiet for an
 * event it cannot have affected: `detectDespiteConfigError` on real webhook payloads.
 */
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { configForJudging, parseRepoConfig, salvageConfig } from "../../../src/config/index.js";
import type { BridgeEvent } from "../../../src/core/events/types.js";
import type { BridgeSelf } from "../../../src/core/actors.js";
import { detectDespiteConfigError } from "../../../src/flows/index.js";
import { checkSuiteEvent, commentEvent, labelEvent, reviewEvent, workflowRunEvent } from "../core-events/scenarios.js";

const self: BridgeSelf = { appSlug: "run-bot", botLogins: ["run-bot[bot]"] };

/** The file as YAML; it must really be invalid, or the test would prove nothing. */
function brokenFile(yaml: string): unknown {
  const raw: unknown = parseYaml(yaml);
  expect(parseRepoConfig(raw).ok).toBe(false);
  return raw;
}

const affected = (event: BridgeEvent, raw: unknown) => detectDespiteConfigError(event, raw, self).kind === "trigger";

describe("CI events", () => {
  const failing = () => checkSuiteEvent("failure");

  it("`check_suite: { auto_fix: true }` (the issue's example) is read as `enabled: true`: the failing suite gets the reply", () => {
    const raw = brokenFile("check_suite:\n  auto_fix: true\n");
    expect(affected(failing(), raw)).toBe(true);
    expect(affected(workflowRunEvent("failure"), raw)).toBe(true);
    expect(salvageConfig(raw).config.check_suite.enabled).toBe(true);
  });

  it("`auto_fix: false` says auto-fix is off: nothing would have run, nothing is said", () => {
    expect(affected(failing(), brokenFile("check_suite:\n  auto_fix: false\n"))).toBe(false);
  });

  it("an unreadable `enabled`, a section that is not a mapping, or a key nobody can place: it may have been on", () => {
    expect(affected(failing(), brokenFile("check_suite:\n  enabled: yes please\n"))).toBe(true);
    expect(affected(failing(), brokenFile("check_suite: on\n"))).toBe(true);
    expect(affected(failing(), brokenFile("check_suite:\n  zzzzzzzz: true\n"))).toBe(true);
  });

  it("a misspelt section name is read as the section", () => {
    expect(affected(failing(), brokenFile("chek_suite:\n  enabled: true\n"))).toBe(true);
    expect(affected(failing(), brokenFile("ci:\n  enabled: true\n"))).toBe(true);
  });

  it("a problem elsewhere in the file, with CI auto-fix off or never mentioned, is not the CI event's business", () => {
    expect(affected(failing(), brokenFile("trigger_phrase: 42\n"))).toBe(false);
    expect(affected(failing(), brokenFile("check_suite:\n  enabled: false\n  max_attemps: 3\n"))).toBe(false);
    expect(affected(failing(), brokenFile("check_suite:\n  max_attempts: 50\n"))).toBe(false);
    expect(affected(failing(), brokenFile("unrelated_key: true\n"))).toBe(false);
  });

  it("only failures count, whatever the file says", () => {
    expect(affected(checkSuiteEvent("success"), brokenFile("check_suite:\n  auto_fix: true\n"))).toBe(false);
  });

  it("valid values of a broken section still apply (branches)", () => {
    const raw = brokenFile('check_suite:\n  enabled: true\n  branches: ["release/*"]\n  max_attemps: 2\n');
    expect(affected(checkSuiteEvent("failure", { headRef: "feature/x" }), raw)).toBe(false);
    expect(affected(checkSuiteEvent("failure", { headRef: "release/1" }), raw)).toBe(true);
  });

  it("a file that could not be read at all (invalid YAML: no mapping) leaves every switch possibly on", () => {
    expect(affected(failing(), null)).toBe(true);
    expect(affected(failing(), ["check_suite"])).toBe(true);
  });
});

describe("labels", () => {
  it("a misspelt `name` key is read as the name", () => {
    const raw = brokenFile("label:\n  nmae: ready-for-bot\n");
    expect(affected(labelEvent("ready-for-bot"), raw)).toBe(true);
    expect(affected(labelEvent("bug"), raw)).toBe(false);
  });

  it("an unreadable name: the default or any name written in the section", () => {
    const raw = brokenFile("label:\n  labelname: ready-for-bot\n");
    expect(affected(labelEvent("ready-for-bot"), raw)).toBe(true);
    expect(affected(labelEvent("agent"), raw)).toBe(true);
    expect(affected(labelEvent("bug"), raw)).toBe(false);
  });

  it("an unreadable `enabled` may have been true; a readable false is respected", () => {
    expect(affected(labelEvent("agent"), brokenFile("label:\n  enabled: sure\n"))).toBe(true);
    expect(affected(labelEvent("agent"), brokenFile("label:\n  enabled: false\n  nmae: agent\n  colour: red\n"))).toBe(false);
  });
});

describe("reviews and comments", () => {
  it("a review requesting changes, with `reviews` misspelt or unreadable", () => {
    const review = () => reviewEvent("changes_requested", "Please handle null.");
    expect(affected(review(), brokenFile("reviews:\n  enable: true\n"))).toBe(true);
    expect(affected(review(), brokenFile("reviews: maybe\n"))).toBe(true);
    expect(affected(review(), brokenFile("reviews:\n  enabled: false\n  whatever: 1\n"))).toBe(false);
  });

  it("a comment is judged with the phrase the file meant, even under a misspelt key", () => {
    const raw = brokenFile("triger_phrase: /bot\ncheck_suite: 1\n");
    expect(affected(commentEvent("/bot fix it"), raw)).toBe(true);
    expect(affected(commentEvent("/agent fix it"), raw)).toBe(false);
  });

  it("every unreadable switch is on for judging, and only those", () => {
    const salvaged = salvageConfig(brokenFile("mention: perhaps\nlabel:\n  enabled: false\n"));
    const judged = configForJudging(salvaged);
    expect(judged.mention).toBe(true);
    expect(judged.label.enabled).toBe(false);
    expect(judged.check_suite.enabled).toBe(false);
  });
});

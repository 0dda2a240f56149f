/**
 * Whose markers the Action trusts: always `github-actions[bot]` (the job's token), plus the bot of
 * a GitHub App installation token (GraphQL `viewer` names it), never a person behind a personal
 * token (their own comments must still trigger, and a person's text is what trust excludes).
 */
import { afterEach, describe, expect, it } from "vitest";
import { identityFor } from "../../../src/action/identity.js";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { AgentRunClient } from "../../../src/service/client.js";
import {
  actionSeed,
  placeIn,
  signedByAction,
  startActionHarness,
  startViewerFront,
  type ActionHarness,
} from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "Fails on Tuesdays." };

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

async function finishedRun(harness: ActionHarness): Promise<number> {
  const client = new AgentRunClient({ baseUrl: harness.emulator.url, token: harness.emulator.token, orgId: harness.emulator.orgId });
  const run = await client.createRun({ prompt: "earlier work", metadata: { repository: FULL_NAME } });
  harness.emulator.control.advanceTime(60_000);
  return run.id;
}

const doneMarker = (runId: number, orgId: number) =>
  signedByAction(
    `${renderMarker({ ...newRunMarker({ place: placeIn(1), runId, orgId, sourceType: "GIT_HOST" }), state: "done", outcome: "succeeded" })}\n### ✅ done`,
  );

/**
 * Starts `h` with `writer` as the thread's comment author: an earlier run finished, its done marker
 * in a comment by `writer`, and a person's `/agent continue` under it.
 */
async function continueAfterMarkerBy(writer: string, options: { viewerLogin?: string } = {}) {
  h = await startActionHarness({ seed: { ...actionSeed(), writer }, ...options });
  const earlier = await finishedRun(h);
  h.github.seed({ issueComments: [{ issue_number: 1, user: writer, body: doneMarker(earlier, h.emulator.orgId) }] });
  return { earlier, trigger: h.humanComment(ISSUE, "/agent continue") };
}

/** What `run` wrote as `::warning::` lines (it still reaches the output). */
async function capturingWarnings<T>(run: () => Promise<T>): Promise<{ step: T; lines: string[] }> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    if (String(chunk).startsWith("::warning::")) lines.push(String(chunk));
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  try {
    return { step: await run(), lines };
  } finally {
    process.stdout.write = write;
  }
}

describe("identityFor", () => {
  it("adds an app's bot login, never a person's; github-actions[bot] is always there", () => {
    expect(identityFor(null).botLogins).toEqual(["github-actions[bot]"]);
    expect(identityFor({ login: "my-app[bot]" }).botLogins).toEqual(["github-actions[bot]", "my-app[bot]"]);
    expect(identityFor({ login: "GitHub-Actions[bot]" }).botLogins).toEqual(["github-actions[bot]"]);
    expect(identityFor({ login: "octocat" }).botLogins).toEqual(["github-actions[bot]"]);
    expect(identityFor({ login: null, because: "it answered HTTP 404" })).toMatchObject({
      botLogins: ["github-actions[bot]"],
      unknownBecause: "it answered HTTP 404",
    });
  });
});

describe("with a GitHub App installation token", () => {
  it("trusts the app bot's markers (resume) and never triggers on its comments", async () => {
    const { earlier, trigger } = await continueAfterMarkerBy("my-app[bot]", { viewerLogin: "my-app[bot]" });
    const step = await h.step({
      eventName: "issue_comment",
      payload: trigger.payload,
      inputs: { "github-token": "ghs_app_installation_token" },
    });
    expect(step.outputs).toMatchObject({ "run-id": String(earlier), resumed: "true" });
    expect(h.github.commentsOn(FULL_NAME, 1).find((c) => c.id === Number(step.outputs["comment-id"]))!.user.login).toBe("my-app[bot]");

    const own = h.humanComment(ISSUE, "/agent from the bot itself", "my-app[bot]");
    const ignored = await h.step({
      eventName: "issue_comment",
      payload: own.payload,
      inputs: { "github-token": "ghs_app_installation_token", "allowed-bots": "*" },
    });
    expect(ignored.result.outcome.kind).toBe("ignored");
  });

  it("without that identity, the same app's markers are not trusted: a new run starts, and one warning line says why", async () => {
    // The fake in github.com mode serves no GraphQL: POST /graphql answers 404.
    const { trigger } = await continueAfterMarkerBy("my-app[bot]");
    const warnings = await capturingWarnings(() => h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} }));
    expect(warnings.step.outputs.resumed).toBe("false");
    expect(h.service.resumes()).toEqual([]);
    const identityWarnings = warnings.lines.filter((line) => line.includes("Could not learn who github-token writes as"));
    expect(identityWarnings).toEqual([
      `::warning::Could not learn who github-token writes as: GraphQL at ${h.github.url}/graphql it answered HTTP 404. ` +
        "Only github-actions[bot]'s markers are trusted, so with another token (a GitHub App's) this step cannot trust its own markers " +
        "and starts fresh runs instead of resuming; check GITHUB_GRAPHQL_URL and the token.\n",
    ]);
  });

  it("asks GraphQL at GITHUB_GRAPHQL_URL, not under the REST base", async () => {
    const { earlier, trigger } = await continueAfterMarkerBy("my-app[bot]");
    const front = await startViewerFront(h.github.url, "my-app[bot]");
    try {
      // REST on the fake itself (no GraphQL there); GraphQL only through the front.
      const step = await h.step({
        eventName: "issue_comment",
        payload: trigger.payload,
        inputs: { "github-token": "ghs_app_installation_token" },
        extra: { GITHUB_GRAPHQL_URL: `${front.url}/graphql` },
      });
      expect(step.outputs).toMatchObject({ "run-id": String(earlier), resumed: "true" });
      expect(h.github.callsTo("POST", "/graphql")).toEqual([]);
    } finally {
      await front.close();
    }
  });
});

describe("with a personal access token", () => {
  it("the person still triggers runs, and markers in their comments are not trusted", async () => {
    const { trigger } = await continueAfterMarkerBy("maintainer", { viewerLogin: "maintainer" });
    const step = await h.step({
      eventName: "issue_comment",
      payload: trigger.payload,
      inputs: { "github-token": "ghp_personal_token_value" },
    });
    expect(step.result.outcome.kind).toBe("run");
    expect(step.outputs.resumed).toBe("false");
  });
});

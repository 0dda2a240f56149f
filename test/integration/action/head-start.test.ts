/**
 * The head start (src/action/head-start.ts): the GitHub reads a step is sure to make, sent by the
 * entry before the rest of the Action is loaded, then taken over by the step. In process against the
 * fake GitHub and the emulator behind a recorder, with the step started as index.ts starts it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startHeadStart } from "../../../src/action/head-start.js";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import type { IssueCommentSeed } from "../../helpers/fake-github/index.js";
import {
  ACTIONS_BOT,
  actionSeed,
  startActionHarness,
  workflowDispatchPayload,
  type ActionHarness,
  signedByAction,
  placeIn,
} from "../../helpers/action-runner.js";
import { FULL_NAME, OWNER, REPO_ID } from "../../helpers/app-payloads.js";

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const SERVICE_REPO_ID = 31;
const CONFIG_READ = `GET /repos/${FULL_NAME}/contents/.github/agent-run.yml`;
/** The dispatching sender's repository role (workflowDispatchPayload's sender is `maintainer`). */
const ROLE_READ = `GET /repos/${FULL_NAME}/collaborators/maintainer/permission`;
const gitHubCalls = () => h.github.requests.map((r) => `${r.method} ${r.path.split("?")[0]}`);
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A tracking comment an earlier job left: one run started `minutes` ago. */
function startedRun(minutes: number, runId: number): IssueCommentSeed {
  const marker = {
    ...newRunMarker({ place: placeIn(1), runId, orgId: 1, sourceType: "GIT_HOST", requestId: `actions:${runId}:1` }),
    state: "done" as const,
    outcome: "succeeded" as const,
  };
  return {
    issue_number: 1,
    user: ACTIONS_BOT,
    created_at: minutesAgo(minutes),
    updated_at: minutesAgo(minutes),
    body: signedByAction(`${renderMarker(marker)}\n### ✅ Agent run #${runId} succeeded`),
  };
}

describe("the head start", () => {
  it("a dispatch with a prompt: the configuration, the identity and the recent comments are read once each, the service's repository list once, then the create", async () => {
    h = await startActionHarness({ emulator: { repositories: [{ id: SERVICE_REPO_ID, full_name: FULL_NAME, github_id: REPO_ID }] } });
    const step = await h.step({
      eventName: "workflow_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { prompt: "Upgrade the test runner", wait: "false" },
    });

    expect(step.result.outcome).toMatchObject({ kind: "run" });
    const calls = gitHubCalls();
    expect(calls.filter((call) => call === CONFIG_READ)).toHaveLength(1);
    expect(calls.filter((call) => call === "POST /graphql")).toHaveLength(1);
    expect(calls.filter((call) => call === `GET /repos/${FULL_NAME}/issues/comments`)).toHaveLength(1);
    expect(calls.filter((call) => call === ROLE_READ)).toHaveLength(1);
    expect(h.service.requests.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      `GET /v1/organizations/${h.emulator.orgId}/repos`,
      `POST /v1/organizations/${h.emulator.orgId}/agent/run`,
    ]);
    expect(h.service.creates()[0]).toMatchObject({ repo_id: SERVICE_REPO_ID });
  });

  it("a dispatch with a prompt: the sender's role is read before the runner loads, and the step's permission check takes that answer", async () => {
    h = await startActionHarness({ emulator: { repositories: [{ id: SERVICE_REPO_ID, full_name: FULL_NAME, github_id: REPO_ID }] } });
    const step = await h.step({
      eventName: "workflow_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { prompt: "Upgrade the test runner", wait: "false" },
      // The runner loads only after GitHub answered the role; meanwhile the sender loses write access.
      headStart: async (env) => {
        const started = startHeadStart(env);
        expect(started?.roleOf).toBe("maintainer");
        await vi.waitFor(() => expect(gitHubCalls()).toContain(ROLE_READ));
        for (const collaborator of h.github.state.collaborators) if (collaborator.login === "maintainer") collaborator.permission = "read";
        return started;
      },
    });

    // Decided on the answer read ahead (write): not asked again.
    expect(step.result.outcome).toMatchObject({ kind: "run" });
    expect(gitHubCalls().filter((call) => call === ROLE_READ)).toHaveLength(1);
  });

  it("no role is read ahead for a bot sender, nor without a prompt", () => {
    const env = {
      GITHUB_EVENT_NAME: "workflow_dispatch",
      GITHUB_REPOSITORY: FULL_NAME,
      GITHUB_API_URL: "http://127.0.0.1:9",
      "INPUT_GITHUB-TOKEN": "ghs_x",
    };
    const dir = mkdtempSync(join(tmpdir(), "head-start-"));
    let written = 0;
    const payload = (sender: object) => {
      const path = join(dir, `event-${written++}.json`);
      writeFileSync(path, JSON.stringify({ ...workflowDispatchPayload(), sender }));
      return path;
    };
    const person = payload({ login: "maintainer", type: "User" });
    expect(startHeadStart({ ...env, GITHUB_EVENT_PATH: person, INPUT_PROMPT: "go" })!.roleOf).toBe("maintainer");
    expect(startHeadStart({ ...env, GITHUB_EVENT_PATH: person })!.roleOf).toBeNull();
    expect(
      startHeadStart({ ...env, GITHUB_EVENT_PATH: payload({ login: "renovate[bot]", type: "Bot" }), INPUT_PROMPT: "go" })!.roleOf,
    ).toBeNull();
    expect(startHeadStart({ ...env, GITHUB_EVENT_PATH: join(dir, "missing.json"), INPUT_PROMPT: "go" })!.roleOf).toBeNull();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the service's list asked with another token is not taken over: the client lists with its own", async () => {
    h = await startActionHarness({ emulator: { repositories: [{ id: SERVICE_REPO_ID, full_name: FULL_NAME, github_id: REPO_ID }] } });
    const step = await h.step({
      eventName: "workflow_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { prompt: "Upgrade the test runner", wait: "false" },
      headStart: (env) => startHeadStart({ ...env, "INPUT_API-TOKEN": "not-the-step-token" }),
    });

    expect(step.result.outcome).toMatchObject({ kind: "run" });
    const lists = h.service.requests.filter((r) => r.method === "GET" && r.path.startsWith(`/v1/organizations/${h.emulator.orgId}/repos`));
    expect(lists).toHaveLength(2);
    expect(h.service.creates()[0]).toMatchObject({ repo_id: SERVICE_REPO_ID });
  });

  it("sends only reads, and only the configuration's without a prompt", () => {
    const env = {
      GITHUB_EVENT_NAME: "issue_comment",
      GITHUB_REPOSITORY: FULL_NAME,
      GITHUB_API_URL: "http://127.0.0.1:9",
      "INPUT_GITHUB-TOKEN": "ghs_x",
    };
    const comment = startHeadStart(env)!;
    expect(comment).toMatchObject({
      token: "ghs_x",
      apiUrl: "http://127.0.0.1:9",
      repoFullName: FULL_NAME,
      identity: null,
      recentComments: null,
      service: null,
    });
    const resume = startHeadStart({ ...env, INPUT_MODE: "Resume", INPUT_PROMPT: "go on" })!;
    expect(resume.identity).not.toBeNull();
    expect(resume.recentComments).toBeNull();
    expect(resume.service).toBeNull();
    // A create names its repository itself: no list to read.
    const service = { "INPUT_API-URL": "http://127.0.0.1:9", "INPUT_API-TOKEN": "t", "INPUT_ORG-ID": "7", INPUT_PROMPT: "go" };
    expect(startHeadStart({ ...env, ...service, "INPUT_REPO-ID": "31" })!.service).toBeNull();
    expect(startHeadStart({ ...env, ...service, "INPUT_ORG-ID": "acme" })!.service).toBeNull();
    const listed = startHeadStart({ ...env, ...service })!.service!;
    expect(listed).toMatchObject({ apiToken: "t", orgId: 7 });
    expect(listed.sentAhead.map((r) => `${r.method} ${r.url.href}`)).toEqual([
      "GET http://127.0.0.1:9/v1/organizations/7/repos?skip=0&limit=100",
    ]);
    // Too little to know what to read: the step reads for itself, and reports what is missing.
    expect(startHeadStart({ ...env, "INPUT_GITHUB-TOKEN": " " })).toBeNull();
    expect(startHeadStart({ ...env, GITHUB_REPOSITORY: "not-a-repository" })).toBeNull();
    expect(startHeadStart({ ...env, GITHUB_EVENT_NAME: undefined })).toBeNull();
  });

  it("reads sent for another repository are not taken over: the step reads its own configuration and comments", async () => {
    const seed = actionSeed();
    h = await startActionHarness({
      config: "limits:\n  runs_per_repo_per_hour: 2\n",
      seed: { ...seed, issueComments: [startedRun(50, 951), startedRun(10, 952)] },
    });
    const elsewhere = `${OWNER}/elsewhere`;
    const step = await h.step({
      eventName: "workflow_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { prompt: "Upgrade the test runner", "repo-id": "31" },
      headStart: (env) => startHeadStart({ ...env, GITHUB_REPOSITORY: elsewhere }),
    });

    // This repository's limit and runs hold the dispatch back: the right file and comments were read.
    expect(step.result.outcome).toMatchObject({ kind: "over_limit" });
    expect(h.service.creates()).toEqual([]);
    const calls = gitHubCalls();
    expect(calls).toContain(`GET /repos/${elsewhere}/contents/.github/agent-run.yml`);
    expect(calls.filter((call) => call === CONFIG_READ)).toHaveLength(1);
    expect(calls.filter((call) => call === `GET /repos/${FULL_NAME}/issues/comments`)).toHaveLength(1);
  });
});

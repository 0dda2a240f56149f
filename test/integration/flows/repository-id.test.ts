/**
 * `repo_id` from the service's repository list, over real HTTP against the emulator: the lookup
 * itself (match, cache, paging, absent endpoint, failures), then the App and the Action sending it
 * with the create, and saying so in the tracking comment when there is none.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator/index.js";
import type { FakeWrite } from "../../helpers/fake-github/index.js";
import { RepositoryIdDirectory } from "../../../src/flows/repository-id.js";
import { AgentRunClient } from "../../../src/service/index.js";
import { startActionHarness, type ActionHarness } from "../../helpers/action-runner.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";
import { FULL_NAME, REPO_ID } from "../../helpers/app-payloads.js";

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ rateLimits: false, ...options });
  closers.push(() => emu.close());
  return emu;
}

function clientFor(emu: RunningEmulator, retries = 5) {
  return new AgentRunClient({
    baseUrl: emu.url,
    token: emu.token,
    orgId: emu.orgId,
    retries,
    backoff: { minMs: 5, maxMs: 10 },
    logger: { warn() {} },
  });
}

const ORG_DEFAULT_NOTE = "the organization's default repository applies";
const repositoryListRequests = (emu: RunningEmulator) => emu.control.stats().byRoute.listRepositories ?? 0;

describe("RepositoryIdDirectory", () => {
  it("finds the id by github_id when the service lists it, else by full_name in any case", async () => {
    const emu = await emulator({
      repositories: [
        { id: 5, full_name: "octo-org/renamed-long-ago", github_id: REPO_ID },
        { id: 6, full_name: FULL_NAME },
        { id: 7, full_name: "Octo-Org/Gadgets" },
      ],
    });
    const client = clientFor(emu);
    const directory = new RepositoryIdDirectory();
    expect(await directory.lookup(client, { fullName: FULL_NAME, githubId: REPO_ID })).toEqual({ repoId: 5, from: "service" });
    expect(await directory.lookup(client, { fullName: "octo-org/gadgets", githubId: 1 })).toEqual({ repoId: 7, from: "service" });
    expect(await directory.lookup(client, { fullName: "octo-org/unknown" })).toEqual({ repoId: null, why: "not_listed" });
    expect(repositoryListRequests(emu)).toBe(1);
  });

  it("keeps the list for an hour, then reads it again", async () => {
    const emu = await emulator({ repositories: [{ id: 6, full_name: FULL_NAME }] });
    let now = 1_000_000;
    const directory = new RepositoryIdDirectory({ now: () => now });
    const client = clientFor(emu);
    await directory.lookup(client, { fullName: FULL_NAME });
    emu.control.setRepositories([{ id: 60, full_name: FULL_NAME }]);
    now += 59 * 60_000;
    expect(await directory.lookup(client, { fullName: FULL_NAME })).toEqual({ repoId: 6, from: "service" });
    now += 2 * 60_000;
    expect(await directory.lookup(client, { fullName: FULL_NAME })).toEqual({ repoId: 60, from: "service" });
    expect(repositoryListRequests(emu)).toBe(2);
    // Another client (another organization's token) has its own list.
    await directory.lookup(clientFor(emu), { fullName: FULL_NAME });
    expect(repositoryListRequests(emu)).toBe(3);
  });

  it("reads every page of a long list once, and lookups at once share that reading", async () => {
    const repositories = Array.from({ length: 250 }, (_, i) => ({ id: i + 1, full_name: `octo-org/repo-${i + 1}` }));
    const emu = await emulator({ repositories });
    const directory = new RepositoryIdDirectory();
    const client = clientFor(emu);
    const [first, last] = await Promise.all([
      directory.lookup(client, { fullName: "octo-org/repo-1" }),
      directory.lookup(client, { fullName: "octo-org/repo-250" }),
    ]);
    expect([first, last]).toEqual([
      { repoId: 1, from: "service" },
      { repoId: 250, from: "service" },
    ]);
    expect(repositoryListRequests(emu)).toBe(3);
  });

  it("without the endpoint: no_endpoint, and the service is asked once", async () => {
    const emu = await emulator({ endpoints: { listRepositories: false } });
    const directory = new RepositoryIdDirectory();
    const client = clientFor(emu);
    expect(await directory.lookup(client, { fullName: FULL_NAME })).toEqual({ repoId: null, why: "no_endpoint" });
    expect(await directory.lookup(client, { fullName: FULL_NAME })).toEqual({ repoId: null, why: "no_endpoint" });
    expect(repositoryListRequests(emu)).toBe(1);
  });

  it("a failed listing is logged, answers lookup_failed, and is not remembered", async () => {
    const emu = await emulator({ repositories: [{ id: 6, full_name: FULL_NAME }] });
    emu.control.setFaults({ serverErrorRate: 1 });
    const directory = new RepositoryIdDirectory();
    const client = clientFor(emu, 0);
    const warnings: string[] = [];
    const logger = { warn: (_obj: object, message: string) => warnings.push(message) };
    expect(await directory.lookup(client, { fullName: FULL_NAME }, logger)).toEqual({ repoId: null, why: "lookup_failed" });
    expect(warnings).toEqual([expect.stringContaining("could not list the service's repositories")]);
    emu.control.setFaults({});
    expect(await directory.lookup(client, { fullName: FULL_NAME }, logger)).toEqual({ repoId: 6, from: "service" });
  });
});

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

function firstBodyPosted(writes: readonly FakeWrite[]): string {
  const created = writes.find((w): w is Extract<FakeWrite, { kind: "comment_created" }> => w.kind === "comment_created");
  return created!.comment.body;
}

describe("the App sends the repository's repo_id", () => {
  let harness: AppHarness;
  afterEach(async () => {
    await harness?.close();
  });

  it("found in the service's list: sent with the create, no note in the tracking comment", async () => {
    harness = await startAppHarness({ emulator: { repositories: [{ id: 31, full_name: FULL_NAME, github_id: REPO_ID }] } });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    expect(harness.service.creates()).toEqual([expect.objectContaining({ repo_id: 31 })]);
    expect(firstBodyPosted(harness.github.writes)).not.toContain(ORG_DEFAULT_NOTE);
  });

  it("not listed: sent without repo_id, and the tracking comment says the organization's default applies", async () => {
    harness = await startAppHarness({ emulator: { repositories: [{ id: 32, full_name: "octo-org/other" }] } });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    expect(harness.service.creates()[0]).not.toHaveProperty("repo_id");
    expect(firstBodyPosted(harness.github.writes)).toContain(ORG_DEFAULT_NOTE);
  });

  it("a configured repo_id the service lists for this repository (or without a github_id) is sent as configured", async () => {
    harness = await startAppHarness({
      config: "repo_id: 77\n",
      emulator: {
        repositories: [
          { id: 77, full_name: "octo-org/renamed", github_id: REPO_ID },
          { id: 78, full_name: "octo-org/old" },
        ],
      },
    });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    harness.github.seed({ files: [{ path: ".github/agent-run.yml", content: "repo_id: 78\n" }] });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent new and now?").payload);
    await harness.idle();
    expect(harness.service.creates()).toEqual([expect.objectContaining({ repo_id: 77 }), expect.objectContaining({ repo_id: 78 })]);
    expect(firstBodyPosted(harness.github.writes)).not.toContain(ORG_DEFAULT_NOTE);
  });

  it("a configured repo_id the service lists for another repository is refused, with a reply naming repo_id", async () => {
    harness = await startAppHarness({
      config: "repo_id: 77\n",
      emulator: {
        repositories: [
          { id: 77, full_name: "octo-org/payroll", github_id: 9999 },
          { id: 31, full_name: FULL_NAME, github_id: REPO_ID },
        ],
      },
    });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    expect(harness.service.creates()).toEqual([]);
    const reply = firstBodyPosted(harness.github.writes);
    expect(reply).toContain("`repo_id` in `.github/agent-run.yml` names another repository on the service, not `octo-org/widgets`");
    // Neither the value nor the (possibly private) repository the service lists under it.
    expect(reply).not.toContain("77");
    expect(reply).not.toContain("payroll");
    expect(harness.github.writes.filter((w) => w.kind === "comment_created")).toHaveLength(1);
  });

  it("without a repository list on the service, a configured repo_id is used as given", async () => {
    harness = await startAppHarness({ config: "repo_id: 77\n", emulator: { endpoints: { listRepositories: false } } });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    expect(harness.service.creates()).toEqual([expect.objectContaining({ repo_id: 77 })]);
  });
});

describe("the Action sends the repository's repo_id", () => {
  let h: ActionHarness;
  afterEach(async () => {
    await h?.close();
  });

  it("found by full_name: sent with the create", async () => {
    h = await startActionHarness({ emulator: { repositories: [{ id: 41, full_name: FULL_NAME }] } });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    expect(h.service.creates()).toEqual([expect.objectContaining({ repo_id: 41 })]);
    expect(firstBodyPosted(h.github.writes)).not.toContain(ORG_DEFAULT_NOTE);
  });

  it("a configured repo_id the service lists for another repository is refused in the thread, and the step fails", async () => {
    h = await startActionHarness({
      config: "repo_id: 77\n",
      emulator: { repositories: [{ id: 77, full_name: "octo-org/payroll", github_id: 9999 }] },
    });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.result.outcome).toMatchObject({ kind: "refused", reason: expect.stringContaining("repo_id 77") });
    expect(h.service.creates()).toEqual([]);
    expect(firstBodyPosted(h.github.writes)).toContain("`repo_id` in `.github/agent-run.yml` names another repository on the service");
  });

  it("no repository list on the service: sent without repo_id, and the tracking comment says so", async () => {
    h = await startActionHarness({ emulator: { endpoints: { listRepositories: false } } });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    expect(h.service.creates()[0]).not.toHaveProperty("repo_id");
    expect(firstBodyPosted(h.github.writes)).toContain(ORG_DEFAULT_NOTE);
  });
});

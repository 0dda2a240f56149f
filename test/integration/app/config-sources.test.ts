/**
 * Repository settings stay where they belong (the App): `_extends` may name only the repository
 * itself or the owner's `.github` repository, never a more private one; the organization defaults
 * of a more private `.github` are not applied either; no reply quotes a value of a configuration
 * file; and someone who may not trigger runs hears nothing of a broken one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import type { FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { baseSeed, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
/** A setting only the private repository may know. */
const SECRET = "codename-NIGHTJAR-42";

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

/** widgets (public unless said), the owner's `.github` and another repository of the owner, with files. */
function seedWith(options: {
  widgetsPrivate?: boolean;
  dotGithubPrivate?: boolean;
  files: NonNullable<FakeGitHubSeed["files"]>;
}): FakeGitHubSeed {
  const seed = baseSeed();
  seed.repositories = [
    { ...seed.repositories![0]!, private: options.widgetsPrivate ?? false },
    { owner: "octo-org", name: ".github", private: options.dotGithubPrivate ?? true },
    { owner: "octo-org", name: "payroll", private: true },
  ];
  seed.files = options.files;
  return seed;
}

/** Everything the App sent anywhere: the bodies of its GitHub requests and of its service requests. */
function everythingSent(h: AppHarness): string {
  return JSON.stringify([h.github.requests.map((request) => request.body), h.service.requests]);
}

async function comment(h: AppHarness, body: string, login = "maintainer"): Promise<void> {
  await h.deliver("issue_comment", h.humanComment(ISSUE, body, login).payload);
  await h.idle();
}

describe("_extends names only this repository or the owner's .github", () => {
  it("another repository of the owner: a config error naming the rule; its file is never read, nothing starts", async () => {
    harness = await startAppHarness({
      seed: seedWith({
        files: [
          { path: ".github/agent-run.yml", content: "_extends: payroll\n" },
          { repo: "octo-org/payroll", path: ".github/agent-run.yml", content: `instructions: ${SECRET}\n` },
        ],
      }),
    });
    await comment(harness, "/agent fix the flaky test");

    const [reply] = harness.botComments(1);
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    expect(reply!.body).toContain(
      "`_extends` in `.github/agent-run.yml`: names another repository; settings are read only from this repository and the owner's `.github` repository",
    );
    expect(reply!.body).not.toContain("payroll");
    expect(harness.github.callsTo("GET", "/repos/octo-org/payroll/contents/.github/agent-run.yml")).toEqual([]);
    expect(harness.service.requests).toEqual([]);
    expect(everythingSent(harness)).not.toContain(SECRET);
  });

  it("a file of this repository or of the owner's (public) .github is merged under the file, and a bad key there is named with its file", async () => {
    harness = await startAppHarness({
      seed: seedWith({
        dotGithubPrivate: false,
        files: [
          { path: ".github/agent-run.yml", content: "_extends: widgets:.github/base.yml\nmention: false\n" },
          { path: ".github/base.yml", content: "_extends: .github\nfollow_up: new\n" },
          { repo: "octo-org/.github", path: ".github/agent-run.yml", content: "permissions:\n  minimum: owner\n" },
        ],
      }),
    });
    await comment(harness, "/agent fix the flaky test");
    const [reply] = harness.botComments(1);
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    expect(reply!.body).toContain(
      "`permissions.minimum` (in `.github/agent-run.yml` of the owner's `.github` repository): must be one of: write, maintain, admin (got text of 5 characters)",
    );
    expect(reply!.body).not.toContain("owner\n");
  });
});

describe("_extends chains", () => {
  it("a loop is a config error naming the file where it closes", async () => {
    harness = await startAppHarness({
      seed: seedWith({
        files: [
          { path: ".github/agent-run.yml", content: "_extends: widgets:.github/base.yml\n" },
          { path: ".github/base.yml", content: "_extends: widgets\n" },
        ],
      }),
    });
    await comment(harness, "/agent fix the flaky test");
    const [reply] = harness.botComments(1);
    expect(reply!.body).toContain("`_extends` in `.github/base.yml`: leads back to a file already read (a loop)");
    expect(harness.service.requests).toEqual([]);
  });
});

describe("never from a repository more private than the one configured", () => {
  it("a public repository extending a private .github: a config error naming the rule; the private settings reach nothing", async () => {
    harness = await startAppHarness({
      seed: seedWith({
        files: [
          { path: ".github/agent-run.yml", content: "_extends: .github\n" },
          {
            repo: "octo-org/.github",
            path: ".github/agent-run.yml",
            content: `instructions: ${SECRET}\npermissions:\n  minimum: ${SECRET}\n`,
          },
        ],
      }),
    });
    await comment(harness, "/agent fix the flaky test");

    const [reply] = harness.botComments(1);
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    expect(reply!.body).toContain(
      "`_extends` names `.github/agent-run.yml` of the owner's `.github` repository, which is private while this repository is public; settings are never read from a repository more private than the one they configure (public, then internal, then private)",
    );
    expect(harness.service.requests).toEqual([]);
    expect(everythingSent(harness)).not.toContain(SECRET);
  });

  it("the organization defaults of a private .github are not applied to a public repository; to a private one they are", async () => {
    const files = [{ repo: "octo-org/.github", path: ".github/agent-run.yml", content: `instructions: ${SECRET}\n` }];
    harness = await startAppHarness({ seed: seedWith({ files }) });
    await comment(harness, "/agent fix the flaky test");
    const [reply] = harness.botComments(1);
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    expect(reply!.body).toContain(
      "this repository has no `.github/agent-run.yml`, and the organization defaults in `.github/agent-run.yml` of the owner's `.github` repository, which is private while this repository is public",
    );
    expect(everythingSent(harness)).not.toContain(SECRET);
    await harness.close();

    harness = await startAppHarness({ seed: seedWith({ widgetsPrivate: true, files }) });
    await comment(harness, "/agent fix the flaky test");
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.creates()[0]!.prompt).toContain(SECRET);
  });
});

describe("the visibility is asked only when a file comes from the owner's .github", () => {
  it("then conditionally (304 while nothing changed), and a repository turned private is seen at the next event", async () => {
    harness = await startAppHarness({
      seed: seedWith({
        dotGithubPrivate: false,
        files: [{ repo: "octo-org/.github", path: ".github/agent-run.yml", content: "follow_up: new\n" }],
      }),
    });
    await comment(harness, "/agent fix the flaky test");
    await comment(harness, "/agent and the other one");
    const kinds = () => harness.botComments(1).map((c) => parseCommentKind(c.body));
    expect(kinds()).not.toContain("config_error");
    expect(harness.github.callsTo("GET", "/repos/octo-org/.github").map((r) => r.status)).toEqual([200, 304]);
    expect(harness.github.callsTo("GET", "/repos/octo-org/widgets").map((r) => r.status)).toEqual([200, 304]);

    harness.github.state.repositories.find((r) => r.name === ".github")!.private = true;
    const runs = harness.service.creates().length;
    await comment(harness, "/agent once more");
    expect(harness.service.creates()).toHaveLength(runs);
    expect(kinds()).toContain("config_error");
    expect(harness.github.callsTo("GET", "/repos/octo-org/.github").at(-1)!.status).toBe(200);
  });

  it("a repository with its own file asks no visibility at all", async () => {
    harness = await startAppHarness({ seed: seedWith({ files: [{ path: ".github/agent-run.yml", content: "follow_up: new\n" }] }) });
    await comment(harness, "/agent fix the flaky test");
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.github.callsTo("GET", /^\/repos\/[^/]+\/[^/]+$/)).toEqual([]);
  });
});

describe("no reply quotes a value of a configuration file", () => {
  it("an invalid value: the reply names the key, the rule and the file, never the value", async () => {
    harness = await startAppHarness({ config: `permissions:\n  minimum: ${SECRET}\nfollow_up: ${SECRET}\n` });
    await comment(harness, "/agent fix the flaky test");
    const [reply] = harness.botComments(1);
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    expect(reply!.body).toContain("**The agent configuration in `.github/agent-run.yml` is invalid**");
    expect(reply!.body).toContain("`permissions.minimum`: must be one of: write, maintain, admin (got text of 20 characters)");
    expect(reply!.body).toContain("`follow_up`: must be one of: queue, new, interrupt (got text of 20 characters)");
    expect(everythingSent(harness)).not.toContain(SECRET);
  });

  it("broken YAML: the line and column and the kind of mistake, never the file's text", async () => {
    harness = await startAppHarness({ config: `trigger_phrase: /agent\ninstructions: *${SECRET}\n` });
    await comment(harness, "/agent fix the flaky test");
    const [reply] = harness.botComments(1);
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    expect(reply!.body).toContain("`.github/agent-run.yml`: not valid YAML (an alias that names no anchor)");
    expect(everythingSent(harness)).not.toContain(SECRET);
  });
});

describe("a broken configuration is told only to someone who may trigger runs", () => {
  it("a reader's trigger gets nothing (their permission is asked); a maintainer's gets the reply", async () => {
    harness = await startAppHarness({ config: "follow_up: later\n" });
    await comment(harness, "/agent fix the flaky test", "reader");
    expect(harness.github.callsTo("GET", "/repos/octo-org/widgets/collaborators/reader/permission")).toHaveLength(1);
    expect(harness.github.writes).toEqual([]);

    await comment(harness, "/agent fix the flaky test");
    expect(harness.botComments(1).map((c) => parseCommentKind(c.body))).toEqual(["config_error"]);
  });

  it("`permissions.users` still lets its people hear about the rest of a broken file", async () => {
    harness = await startAppHarness({ config: "permissions:\n  users: [reader]\nfollow_up: later\n" });
    await comment(harness, "/agent fix the flaky test", "reader");
    expect(harness.botComments(1).map((c) => parseCommentKind(c.body))).toEqual(["config_error"]);
  });
});

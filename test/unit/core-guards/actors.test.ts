import { describe, expect, it } from "vitest";
import { actsAsPerson, classifyActor, isBotAccount, isBotActor, type BridgeSelf } from "../../../src/core/actors.js";

const app: BridgeSelf = { appSlug: "agent-run", botLogins: ["agent-run[bot]"] };
const action: BridgeSelf = {
  botLogins: ["github-actions[bot]", "Helper-Account"],
  allowedBots: { all: false, logins: ["renovate[bot]", "dependabot"] },
};

describe("classifyActor", () => {
  it.each([
    // The bridge itself, whatever the case and whatever the allow-list says.
    [{ login: "Agent-Run[BOT]", type: "Bot" }, app, "self"],
    [{ login: "agent-run[bot]" }, { appSlug: "agent-run", botLogins: [] }, "self"],
    ["GITHUB-ACTIONS[bot]", action, "self"],
    [{ login: "helper-account", type: "User" }, action, "self"],
    [{ login: "github-actions[bot]", type: "Bot" }, { ...action, allowedBots: { all: true, logins: [] } }, "self"],
    // Bots: by type alone, by the suffix in any case.
    [{ login: "some-integration", type: "Bot" }, app, "bot"],
    [{ login: "Other[BOT]", type: "User" }, app, "bot"],
    ["stale[bot]", action, "bot"],
    // Let in by `allowed-bots`: `name` and `name[bot]` both match, `*` matches every bot.
    [{ login: "Renovate[bot]", type: "Bot" }, action, "allowed_bot"],
    [{ login: "dependabot[bot]", type: "Bot" }, action, "allowed_bot"],
    [{ login: "anything[bot]", type: "Bot" }, { botLogins: [], allowedBots: { all: true, logins: [] } }, "allowed_bot"],
    // A listed login that is not a bot account stays a person; people are people.
    [{ login: "dependabot", type: "User" }, action, "person"],
    [{ login: "octocat", type: "User" }, action, "person"],
    ["octocat", app, "person"],
  ] as const)("%j with %j → %s", (actor, self, kind) => {
    expect(classifyActor(actor, self)).toBe(kind);
  });

  it("only people and allowed bots act as a person", () => {
    expect((["self", "allowed_bot", "bot", "person"] as const).filter(actsAsPerson)).toEqual(["allowed_bot", "person"]);
  });

  it("isBotAccount is the one bot test", () => {
    expect([
      isBotAccount("x[Bot]"),
      isBotAccount({ login: "x", type: "Bot" }),
      isBotAccount({ login: "x", type: "User" }),
      isBotAccount({ login: "x", type: null }),
    ]).toEqual([true, true, false, false]);
  });
});

it("isBotActor", () => {
  const self: BridgeSelf = { appSlug: "run-bot", botLogins: ["run-bot[bot]", "helper-account"] };
  expect(isBotActor({ login: "octocat", type: "User" }, self)).toBe(false);
  expect(isBotActor({ login: "Helper-Account", type: "User" }, self)).toBe(true);
  expect(isBotActor({ login: "github-actions[bot]", type: "Bot" }, { botLogins: [] })).toBe(true);
  expect(isBotActor(null, self)).toBe(false);
});

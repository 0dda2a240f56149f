/** ALLOWED_OWNERS' decision on real webhook payloads, and the gate's once-a-day log line per installation. */
import { describe, expect, it } from "vitest";
import { installationOwnerOf, judgeInstallationOwner, parseAllowedOwners } from "../../../src/core/allowed-owners.js";
import { createInstallationGate } from "../../../src/app/installation-gate.js";
import { issueCommentPayload } from "../../helpers/app-payloads.js";

const allowed = parseAllowedOwners("Octo-Org,octocat").owners;
const ours = () => issueCommentPayload({ thread: { number: 1 }, comment: { id: 1, body: "/agent go", login: "maintainer" } });

function elsewhere(owner: string, installationId: number): object {
  const payload = structuredClone(ours()) as unknown as { repository: { owner: { login: string } }; installation: { id: number } };
  payload.repository.owner.login = owner;
  payload.installation.id = installationId;
  return payload;
}

describe("judgeInstallationOwner", () => {
  it("admits every delivery without a list, and with one only the listed accounts', in any case", () => {
    expect(judgeInstallationOwner(null, elsewhere("anyone", 5))).toEqual({ admitted: true });
    expect(judgeInstallationOwner(allowed, ours())).toEqual({ admitted: true });
    expect(judgeInstallationOwner(allowed, elsewhere("OCTOCAT", 6))).toEqual({ admitted: true });
    expect(judgeInstallationOwner(allowed, elsewhere("octo-org-evil", 7))).toEqual({
      admitted: false,
      owner: "octo-org-evil",
      installationId: 7,
    });
  });

  it("reads the installation's account when the event names it, and admits nothing unnamed", () => {
    const installationEvent = { action: "created", installation: { id: 8, account: { login: "stranger" } }, repositories: [] };
    expect(installationOwnerOf(installationEvent)).toBe("stranger");
    expect(judgeInstallationOwner(allowed, installationEvent)).toEqual({ admitted: false, owner: "stranger", installationId: 8 });
    expect(judgeInstallationOwner(allowed, { zen: "Keep it logically awesome." })).toEqual({
      admitted: false,
      owner: null,
      installationId: null,
    });
  });
});

describe("createInstallationGate", () => {
  it("logs each refused installation once a day, not once per delivery", () => {
    const clock = { now: 0 };
    const lines: object[] = [];
    const gate = createInstallationGate(allowed, { warn: (fields) => void lines.push(fields) }, () => clock.now);
    const delivery = (id: string, payload: object) => ({ id, name: "issue_comment", payload });
    expect(gate.admits(delivery("a", ours()))).toBe(true);
    expect(gate.admits(delivery("b", elsewhere("stranger", 9)))).toBe(false);
    clock.now += 23 * 3_600_000;
    expect(gate.admits(delivery("c", elsewhere("stranger", 9)))).toBe(false);
    expect(gate.admits(delivery("d", elsewhere("another", 10)))).toBe(false);
    clock.now += 3_600_000;
    expect(gate.admits(delivery("e", elsewhere("stranger", 9)))).toBe(false);
    expect(lines).toEqual([
      expect.objectContaining({ installation: 9, owner: "stranger", delivery: "b" }),
      expect.objectContaining({ installation: 10, owner: "another", delivery: "d" }),
      expect.objectContaining({ installation: 9, delivery: "e" }),
    ]);
  });
});

/** Signed markers: what is signed, what breaks a signature, and whom trust then believes. */
import { describe, expect, it } from "vitest";
import { createMarkerSigner } from "../../../src/action/marker-signer.js";
import { parseKindMarker, parseMarker } from "../../../src/core/markers/read.js";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { hasValidMarkerSignature, signMarkers, withoutMarkerSignature } from "../../../src/core/markers/signature.js";
import { newRunMarker, renderKindMarker, renderMarker } from "../../../src/core/markers/write.js";
import { newestTrustedRunMarker } from "./fixtures.js";

const signer = createMarkerSigner("service-token");
const marker = newRunMarker({
  place: { repository: "octo-org/widgets", thread: 1 },
  runId: 42,
  orgId: 7,
  sourceType: "GIT_HOST",
  branches: ["agent-run/42-fix"],
});
const body = `${renderMarker(marker)}\n### ⏳ Working on it`;
const ACTIONS_BOT = { login: "github-actions[bot]", type: "Bot" };

describe("signMarkers", () => {
  it("closes the marker line with an HMAC of its content, which still parses and verifies only with the same key", () => {
    const signed = signMarkers(body, signer);
    expect(signed).toMatch(/^<!-- agent-run-bridge:run \{.*\} sig=[\w-]{43} -->\n### ⏳ Working on it$/);
    expect(parseMarker(signed)).toEqual(marker);
    expect(hasValidMarkerSignature(signed, signer)).toBe(true);
    expect(hasValidMarkerSignature(signed, createMarkerSigner("another-token"))).toBe(false);
    expect(hasValidMarkerSignature(body, signer)).toBe(false);
    // Signing twice replaces the signature; removing it gives the body back.
    expect(signMarkers(signed, signer)).toBe(signed);
    expect(withoutMarkerSignature(signed)).toBe(body);
    // Kind markers are signed the same way.
    const refusal = signMarkers(`${renderKindMarker("refusal")}\nNo.`, signer);
    expect(parseCommentKind(refusal)).toBe("refusal");
    expect(hasValidMarkerSignature(refusal, signer)).toBe(true);
  });

  it("breaks when the marker's JSON or kind is changed under it", () => {
    const signed = signMarkers(body, signer);
    expect(hasValidMarkerSignature(signed.replace('"runId":42', '"runId":43'), signer)).toBe(false);
    const refusal = signMarkers(`${renderKindMarker("refusal")}\nNo.`, signer);
    expect(hasValidMarkerSignature(refusal.replace(":refusal", ":hand_back"), signer)).toBe(false);
    // The thread a kind marker names is signed with it: moving it to another thread breaks it.
    const stop = signMarkers(`${renderKindMarker("stop", { repository: "octo-org/widgets", thread: 1 })}\nStopped.`, signer);
    expect(parseKindMarker(stop)?.place).toEqual({ repository: "octo-org/widgets", thread: 1 });
    expect(hasValidMarkerSignature(stop, signer)).toBe(true);
    expect(hasValidMarkerSignature(stop.replace('"thread":1', '"thread":2'), signer)).toBe(false);
  });
});

describe("trust with a marker key", () => {
  it("believes only signed markers of the Action's login, and without a key (the App) the login alone", () => {
    const comments = [
      { id: 1, body: signMarkers(body, signer), user: ACTIONS_BOT },
      // Newer, unsigned: another workflow writing as github-actions[bot], or a version before signing.
      { id: 2, body: renderMarker({ ...marker, runId: 99 }), user: ACTIONS_BOT },
    ];
    const withKey = { botLogins: ["github-actions[bot]"], markerSigner: signer };
    expect(newestTrustedRunMarker(comments, withKey, { repository: "octo-org/widgets", thread: 1 })).toEqual({
      marker,
      commentId: 1,
      legacy: false,
    });
    expect(
      newestTrustedRunMarker(comments, { botLogins: ["github-actions[bot]"] }, { repository: "octo-org/widgets", thread: 1 })?.commentId,
    ).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { createRedactor } from "../../../src/core/redact.js";
import {
  renderConfigError,
  renderHandBack,
  renderRefusal,
  renderServiceError,
  serviceErrorForComment,
} from "../../../src/core/render/replies.js";
import { parseTriggerComment } from "../../../src/core/trigger.js";
import {
  AuthenticationError,
  NetworkError,
  PaymentRequiredError,
  RateLimitError,
  UnprocessableError,
} from "../../../src/service/errors.js";
import { TRIGGER } from "./fixtures.js";

describe("short replies", () => {
  it("renderRefusal mentions the requester once and marks itself", () => {
    const body = renderRefusal({ login: "mallory", reason: "`@mallory` needs write access; ask @acme/maintainers." });
    expect(body).toBe(
      "<!-- agent-run-bridge:refusal -->\n🚫 @mallory, I can't start the agent for you: `@mallory` needs write access; ask `@acme/maintainers`.",
    );
    expect(parseCommentKind(body)).toBe("refusal");
    expect(renderRefusal({ login: "evil<b>", reason: "" })).toBe(
      "<!-- agent-run-bridge:refusal -->\n🚫 `evil<b>`, I can't start the agent for you.",
    );
  });

  it("renderConfigError lists the errors, escaped", () => {
    const body = renderConfigError({
      errors: ["trigger_phrase: must not be empty", "unknown key `<script>`"],
      file: ".github/agent-run.yml",
    });
    expect(body).toBe(
      [
        "<!-- agent-run-bridge:config_error -->",
        "⚠️ **The agent configuration in `.github/agent-run.yml` is invalid**, so nothing was started.",
        "",
        "- trigger_phrase: must not be empty",
        "- unknown key `<script>`",
        "",
        "Fix the file on the default branch, then trigger the agent again.",
      ].join("\n"),
    );
    expect(parseCommentKind(body)).toBe("config_error");
  });

  it("renderHandBack hands the pull request back with the number of attempts", () => {
    expect(renderHandBack({ attempts: 3, prUrl: "https://github.com/acme/widgets/pull/7", triggerPhrase: "/agent" })).toBe(
      "<!-- agent-run-bridge:hand_back -->\n🙋 I tried to fix [this pull request](https://github.com/acme/widgets/pull/7) 3 times and the checks still fail, so I am handing it back to you. I will not start new fix runs for it on my own. Comment `/agent <what to do>` to ask me again.",
    );
    expect(renderHandBack({ attempts: 1 })).toContain("I tried to fix this pull request 1 time and");
    expect(parseTriggerComment(renderHandBack({ attempts: 2, triggerPhrase: "/agent" }), TRIGGER)).toBeNull();
  });

  it("renderServiceError says what to do; the writers' redaction takes the token out", () => {
    const token = "arb_live_9f8e7d6c5b4a";
    const redactor = createRedactor({ secrets: [{ value: token, label: "API token" }] });
    const body = redactor.redact(
      renderServiceError({
        message: `token ${token} was rejected (401)`,
        whatToDo: `Replace ${token}. Sent as Authorization: Bearer ${token}`,
      }),
    );
    expect(body).toBe(
      "<!-- agent-run-bridge:service_error -->\n⚠️ **The agent could not run: token [redacted API token] was rejected (401)**\n\nReplace [redacted API token]. Sent as Authorization: Bearer [redacted API token]",
    );
    expect(parseCommentKind(body)).toBe("service_error");
    expect(createRedactor().redact(renderServiceError({ message: "Bearer abcdefghijklmnop failed", whatToDo: "" }))).toBe(
      "<!-- agent-run-bridge:service_error -->\n⚠️ **The agent could not run: Bearer [redacted bearer token] failed**",
    );
  });

  it("serviceErrorForComment words each failure for a public thread", () => {
    expect(serviceErrorForComment(new PaymentRequiredError("x"))).toEqual({
      message: "the organization's allowance for agent runs is used up (402).",
      whatToDo: "A maintainer needs to add credits or raise the plan on the Agent Run Service, then trigger the agent again.",
    });
    expect(serviceErrorForComment(new AuthenticationError("x", { serverMessage: "token abc is invalid" })).message).toBe(
      "the Agent Run Service rejected the bridge's API token (401).",
    );
    expect(serviceErrorForComment(new RateLimitError("x")).whatToDo).toBe("Try again in a few minutes.");
    expect(serviceErrorForComment(new NetworkError("x", { certainlyNotSent: true })).message).toBe(
      "the Agent Run Service could not be reached or failed.",
    );
    expect(serviceErrorForComment(new Error("boom")).message).toBe("an unexpected error stopped it.");
    // The rejected fields are the bridge's own request fields: named; the server's sentences are not.
    const rejected = new UnprocessableError("x", {
      fieldIssues: [
        { field: "repo_id", message: "repository 9 is <b>gone</b>" },
        { field: "<script>", message: "?" },
      ],
    });
    expect(serviceErrorForComment(rejected).message).toBe("the Agent Run Service rejected the request's repo_id.");
  });
});

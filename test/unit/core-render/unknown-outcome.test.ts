import { describe, expect, it } from "vitest";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { renderRunMayHaveStarted } from "../../../src/core/render/unknown-outcome.js";
import { InvalidResponseError, NetworkError, ServerError, TimeoutError, lostAnswerInWords } from "../../../src/service/errors.js";

const BASE = {
  what: "a 504 came back instead of the run",
  why: "the service does not list runs",
  sentAt: Date.UTC(2026, 10, 28, 13, 5, 0),
  orgId: 42,
  match: { bridge_task_id: "task-3", delivery_id: "d-1" },
  triggerPhrase: "/agent",
};

describe("renderRunMayHaveStarted", () => {
  it("says the run may have started, why the bridge cannot check, where to look and how to ask again; never 'could not run'", () => {
    const body = renderRunMayHaveStarted(BASE);
    expect(parseCommentKind(body)).toBe("service_error");
    expect(body).toContain("⏳ **The agent run may have started.**");
    expect(body).toContain(
      "but a 504 came back instead of the run, and the bridge could not check whether a run was made: the service does not list runs.",
    );
    expect(body).toContain(
      "of organization `42` for one started around `2026-11-28T13:05:00.000Z` whose metadata has `bridge_task_id` = `task-3` and `delivery_id` = `d-1`",
    );
    expect(body).toContain("reply `/agent <what to do>` to try again");
    expect(body).not.toContain("could not run");
  });

  it("links the service's runs page when one is known, and only an http(s) one", () => {
    expect(renderRunMayHaveStarted({ ...BASE, lookAt: "https://service.example/runs" })).toContain(
      "[the Agent Run Service's runs](https://service.example/runs)",
    );
    expect(renderRunMayHaveStarted({ ...BASE, lookAt: "javascript:alert(1)" })).not.toContain("javascript:");
  });

  it("keeps hostile values inert: metadata and reasons cannot open markers or mention anyone, and metadata stays code", () => {
    const body = renderRunMayHaveStarted({
      ...BASE,
      why: "<!-- agent-run-bridge:run {} --> @everyone [x](https://evil.example)",
      match: { bridge_task_id: "`](https://evil.example) <!-- agent-run-bridge" },
    });
    expect(body.match(/<!--/g)).toHaveLength(1);
    // The mention is shown as code (nobody is pinged); the metadata value stays inside a code span.
    expect(body).toContain("`@everyone`");
    expect(body).toContain("`bridge_task_id` = `` `](https://evil.example) <!-");
  });
});

describe("lostAnswerInWords", () => {
  it("names what became of the answer without the server's words", () => {
    expect(lostAnswerInWords(new TimeoutError("t"))).toBe("no answer came back in time");
    expect(lostAnswerInWords(new ServerError("s", { status: 502, serverMessage: "secret upstream detail" }))).toBe(
      "a 502 came back instead of the run (a proxy in front of the service may have given up waiting)",
    );
    expect(lostAnswerInWords(new ServerError("s", { status: 500 }))).toBe("a 500 came back instead of the run");
    expect(lostAnswerInWords(new NetworkError("n", { certainlyNotSent: false }))).toBe("the connection broke before the answer came back");
    expect(lostAnswerInWords(new InvalidResponseError("i"))).toBe("the answer could not be read");
  });
});

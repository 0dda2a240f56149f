import { describe, expect, it } from "vitest";
import { formatAge, renderStatusPage, type StatusSnapshot } from "../../../src/app/ops/status-page.js";
import type { Task } from "../../../src/app/store/types.js";

const NOW = Date.parse("2026-11-22T12:00:00Z");

function task(overrides: Partial<Task>): Task {
  return {
    id: 1,
    kind: "create",
    state: "watching",
    sourceType: "GIT_HOST",
    thread: { installationId: 1, owner: "octo-org", repo: "widgets", issueNumber: 7 },
    runId: 42,
    orgId: 1,
    trackingCommentId: 5,
    reaction: null,
    request: { prompt: "p" },
    requestedBy: "maintainer",
    createdAt: NOW - 90_000,
    startedAt: NOW - 65_000,
    lastStatus: "RUNNING",
    webUrl: "https://agents.example.com/runs/42",
    progress: { logsSeen: 3, currentStep: "Writing `src/<b>.ts`", errors: [], lastSteps: [], finalAnswer: null },
    finalRun: null,
    watchTimedOut: false,
    acknowledgedAt: NOW - 89_000,
    sentAt: NOW - 66_000,
    receivedAt: NOW - 90_500,
    traceparent: null,
    nextPollAt: 0,
    pollIntervalMs: 0,
    sweptAt: null,
    lastEditAt: 0,
    deadlineAt: NOW + 1,
    error: null,
    interrupt: null,
    delivered: [],
    interruptsRefused: false,
    updatedAt: NOW - 5_000,
    ...overrides,
  };
}

const usage = { shared: { used: 12, limit: 60, windowMs: 61_200 }, create: { used: 3, limit: 10, windowMs: 61_200 } };

describe("the status page", () => {
  it("lists runs in flight with links, age and step, failures with their reason, and escapes what it shows", () => {
    const snapshot: StatusSnapshot = {
      generatedAt: NOW,
      replica: "host:1",
      backend: "redis",
      inFlight: [task({})],
      held: [],
      failures: [
        task({
          id: 2,
          state: "abandoned",
          runId: null,
          webUrl: "javascript:alert(1)",
          error: "The bridge restarted <i>mid-call</i>.",
          updatedAt: NOW - 3_600_000,
        }),
      ],
      budget: usage,
      deliveries: [],
      deliveryRecovery: {
        intervalMs: 300_000,
        lastSweep: {
          startedAt: NOW - 125_000,
          finishedAt: NOW - 123_000,
          found: 4,
          redelivered: 3,
          skipped: { succeeded_later: 1 },
          complete: true,
        },
      },
    };
    const html = renderStatusPage(snapshot, { githubWebUrl: "https://ghe.example.com/" });
    expect(html).toContain('<td data-label="Run"><a href="https://agents.example.com/runs/42">#42</a></td>');
    expect(html).toContain('<a href="https://ghe.example.com/octo-org/widgets/issues/7">octo-org/widgets#7</a>');
    expect(html).toContain("watching (RUNNING)");
    expect(html).toContain('<td data-label="Age">1m 5s</td>');
    expect(html).toContain("Writing `src/&lt;b&gt;.ts`");
    expect(html).toContain("The bridge restarted &lt;i&gt;mid-call&lt;/i&gt;.");
    expect(html).not.toContain("javascript:");
    expect(html).toContain("No follow-up is waiting.");
    expect(html).toContain("<strong>All calls</strong>: 12 of 60 in the last 61 s");
    expect(html).toContain('name="viewport"');
    expect(html).toContain(
      `Last sweep 2m 3s ago (${new Date(NOW - 123_000).toISOString()}): 4 failed deliveries found, 3 redelivered; left alone: 1 succeeded later. One runs every 5m 0s.`,
    );
  });

  it("says when delivery recovery is off or has not swept yet", () => {
    const base: StatusSnapshot = {
      generatedAt: NOW,
      replica: "host:1",
      backend: "embedded",
      inFlight: [],
      held: [],
      failures: [],
      budget: usage,
      deliveries: [],
      deliveryRecovery: { intervalMs: 0, lastSweep: null },
    };
    expect(renderStatusPage(base)).toContain("Off (DELIVERY_RECOVERY_INTERVAL=0): failed deliveries are redelivered only by hand.");
    expect(renderStatusPage({ ...base, deliveryRecovery: { intervalMs: 60_000, lastSweep: null } })).toContain(
      "No sweep has completed yet (one runs every 1m 0s).",
    );
  });

  it("writes ages the way people read them", () => {
    expect([0, 59_000, 61_000, 3_600_000 + 120_000, 50 * 3_600_000].map(formatAge)).toEqual(["0s", "59s", "1m 1s", "1h 2m", "2d 2h"]);
  });
});

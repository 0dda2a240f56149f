/**
 * The Action's client behind a proxy, as on a self-hosted runner with `http_proxy`: a real CONNECT
 * proxy on loopback in front of the fake, which the client reaches by a name only the proxy
 * resolves. @actions/github reads GITHUB_API_URL and the proxy variables when first imported, so
 * this file sets them before anything imports it (vitest isolates modules per file).
 */
import { afterAll, describe, expect, it } from "vitest";
import { createActionOctokit, proxyFor } from "../../../src/action/octokit.js";
import { createComment } from "../../../src/github/index.js";
import { startConnectProxy } from "../../helpers/connect-proxy.js";
import { startFake } from "./setup.js";

const saved = { http_proxy: process.env.http_proxy, no_proxy: process.env.no_proxy, GITHUB_API_URL: process.env.GITHUB_API_URL };
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the Action's client through a proxy", () => {
  it("sends every request through it, the head start's (with its abort signal) too", async () => {
    const fake = await startFake({
      app: { slug: "github-actions", name: "GitHub Actions" },
      repositories: [{ owner: "acme", name: "widgets" }],
      issues: [{ number: 3 }],
    });
    const proxy = await startConnectProxy(Number(new URL(fake.url).port));
    try {
      const apiUrl = `http://github.internal.test:${new URL(fake.url).port}`;
      process.env.GITHUB_API_URL = apiUrl;
      process.env.http_proxy = proxy.url;
      delete process.env.no_proxy;
      expect(proxyFor(apiUrl)).toBe(true);
      const octokit = await createActionOctokit("ghs_job_token", apiUrl, "agent-run-bridge/action/test", new AbortController().signal);
      const comment = await createComment(octokit, { owner: "acme", repo: "widgets" }, 3, "Through the proxy");
      expect(comment.author.login).toBe("github-actions[bot]");
      expect(proxy.targets).toEqual([`github.internal.test:${new URL(fake.url).port}`]);
    } finally {
      await proxy.close();
    }
  });
});

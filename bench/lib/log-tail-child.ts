/**
 * One read of a failing job's log in a process of its own, so that its peak memory is the read's:
 * `node log-tail-child.mjs <api-url> <job-id> <max-bytes> <read|whole|floor>` prints
 * `{"maxRssBytes": …, "tailEnd": …}`. Bundled by bench/log-tail.ts and run by plain node with the
 * Action's client (@octokit/core over src/http/node-fetch.ts), as a runner would run it.
 *
 * - read: `readFailedJobLogs`, as the Action and the App read logs now: the tail alone from a download
 *   that serves ranges, else a stream that keeps only the tail.
 * - whole: the body read whole by octokit, then its tail cut (`tailBytes`), as before (over Node's
 *   fetch: src/http/node-fetch.ts now refuses to read a body whole past 64 MiB).
 * - floor: node:http fetching the signed download and dropping every chunk as it comes: what any
 *   reader of that many bytes over Node's HTTP costs (the socket's read buffers waiting for the GC).
 */
import { get } from "node:http";
import { Octokit } from "@octokit/core";
import { readFailedJobLogs } from "../../src/github/checks.js";
import { tailBytes } from "../../src/github/job-log.js";
import { nodeFetch } from "../../src/http/node-fetch.js";
import { unreadFailedJob } from "../../test/helpers/failed-job.js";

const [apiUrl, jobIdText, maxBytesText, mode] = process.argv.slice(2);
const repo = { owner: "acme", repo: "widgets" };
const jobId = Number(jobIdText);
const maxBytes = Number(maxBytesText);
const octokit = new Octokit({ auth: "token ghs_bench", baseUrl: apiUrl, request: { fetch: nodeFetch } });
const route = "GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs";

async function current(): Promise<string> {
  const [read] = await readFailedJobLogs(octokit, repo, [unreadFailedJob(jobId, "test")], maxBytes);
  if (read?.logUnavailable) throw new Error(read.logUnavailable);
  return read?.logTail ?? "";
}

async function whole(): Promise<string> {
  // Node's own fetch: node-fetch.ts now refuses a body read whole past 64 MiB.
  const unbounded = new Octokit({ auth: "token ghs_bench", baseUrl: apiUrl });
  const response = await unbounded.request(route, { ...repo, job_id: jobId });
  return tailBytes(String(response.data), maxBytes).text;
}

async function floor(): Promise<string> {
  const redirect = await octokit.request(route, { ...repo, job_id: jobId, request: { redirect: "manual" } });
  const location = String(redirect.headers.location);
  return new Promise((resolve, reject) => {
    get(location, (response) => {
      let last = "";
      response.on("data", (chunk: Buffer) => (last = chunk.toString("latin1", Math.max(0, chunk.length - 100))));
      response.once("end", () => resolve(last));
      response.once("error", reject);
    }).once("error", reject);
  });
}

const tail = await (mode === "whole" ? whole() : mode === "floor" ? floor() : current());
process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024, tailEnd: tail.slice(-60) })}\n`);

/** The HTML pages: `/` (all runs), `/runs/:id` (a run's `web_url`) and the fake git host's pull requests. */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { EmulatorState } from "./control.js";
import { escapeHtml, PAGE_SECURITY_HEADERS, renderPullRequestPage, renderRunList, renderRunPage } from "./html.js";

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_SECURITY_HEADERS).type("text/html; charset=utf-8").send(html);
}

function notFoundPage(reply: FastifyReply, what: string): FastifyReply {
  return sendHtml(
    reply,
    404,
    `<!doctype html><meta charset="utf-8"><title>Not found</title><p>${escapeHtml(what)} not found. <a href="/">All runs</a></p>`,
  );
}

function idOf(raw: string): number | undefined {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

export function registerPageRoutes(app: FastifyInstance, state: EmulatorState): void {
  const { store } = state;

  app.get("/", async (_request, reply) => {
    const now = state.clock.now();
    const records = store.all().reverse();
    const rows = records.map((record) => ({ run: store.toWire(record, now), prompt: record.request.prompt }));
    return sendHtml(
      reply,
      200,
      renderRunList(
        rows,
        records.some((r) => store.isInProgress(r, now)),
      ),
    );
  });

  app.get<{ Params: { id: string } }>("/runs/:id", async (request, reply) => {
    const id = idOf(request.params.id);
    const record = id === undefined ? undefined : store.find(id);
    if (!record) return notFoundPage(reply, `Run ${request.params.id}`);
    // Read once: status, trace and refresh all describe the same instant.
    const now = state.clock.now();
    return sendHtml(
      reply,
      200,
      renderRunPage({
        run: store.toWire(record, now),
        prompts: record.parts.map((p) => p.prompt),
        logs: store.logs(record, now),
        inProgress: store.isInProgress(record, now),
        listUrl: `${state.base.url}/`,
      }),
    );
  });

  app.get<{ Params: { id: string } }>("/fake-git-host/pr/:id", async (request, reply) => {
    const id = idOf(request.params.id);
    const found = id === undefined ? undefined : store.findPullRequest(id);
    if (!found) return notFoundPage(reply, `Pull request ${request.params.id}`);
    return sendHtml(reply, 200, renderPullRequestPage(found.pullRequest, store.toWire(found.record)));
  });
}

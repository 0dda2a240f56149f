/**
 * HTTP conventions the fake shares across routes: GitHub's error bodies, per_page/page
 * pagination with a Link header, and the rate-limit headers every response carries.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

export const DOCS = "https://docs.github.com/rest";

export function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ message: "Not Found", documentation_url: DOCS, status: "404" });
}

export function validationFailed(
  reply: FastifyReply,
  errors: { resource: string; field: string; code: string; message?: string }[],
): FastifyReply {
  return reply.code(422).send({ message: "Validation Failed", errors, documentation_url: DOCS, status: "422" });
}

export function queryOf(request: FastifyRequest): Record<string, string> {
  const raw = (request.query ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === "string") out[key] = value;
    else if (Array.isArray(value) && typeof value[0] === "string") out[key] = value[value.length - 1] as string;
  }
  return out;
}

/** The request path without its query string, as sent (still percent-encoded). */
function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/** The request path percent-decoded, for logs and path patterns (`.github%2Fx.yml` reads `.github/x.yml`). */
export function decodedPathOf(request: FastifyRequest): string {
  const path = pathOf(request);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * GitHub's page-based pagination: per_page (default 30, at most 100), page (from 1), and a Link
 * header with absolute first/prev/next/last URLs (Octokit's paginate follows rel="next").
 */
export function paginate<T>(request: FastifyRequest, reply: FastifyReply, baseUrl: string, items: T[]): T[] {
  const query = queryOf(request);
  const perPageRaw = Number.parseInt(query.per_page ?? "", 10);
  const perPage = Number.isFinite(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, 100) : 30;
  const pageRaw = Number.parseInt(query.page ?? "", 10);
  const page = Number.isFinite(pageRaw) && pageRaw > 0 ? pageRaw : 1;
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));

  const pageUrl = (n: number): string => {
    const params = new URLSearchParams({ ...query, per_page: String(perPage), page: String(n) });
    return `${baseUrl}${pathOf(request)}?${params.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${pageUrl(Math.min(page - 1, lastPage))}>; rel="prev"`);
  if (page < lastPage) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
  if (page < lastPage) links.push(`<${pageUrl(lastPage)}>; rel="last"`);
  if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`);
  if (links.length > 0) reply.header("link", links.join(", "));
  return items.slice((page - 1) * perPage, page * perPage);
}

export interface RateLimitCounter {
  limit: number;
  used: number;
  resetEpochSeconds: number;
}

export function setRateLimitHeaders(reply: FastifyReply, counter: RateLimitCounter, nowMs: number): void {
  if (nowMs / 1000 >= counter.resetEpochSeconds) {
    counter.used = 0;
    counter.resetEpochSeconds = Math.floor(nowMs / 1000) + 3600;
  }
  counter.used += 1;
  const defaults: Record<string, string> = {
    "x-ratelimit-limit": String(counter.limit),
    "x-ratelimit-remaining": String(Math.max(0, counter.limit - counter.used)),
    "x-ratelimit-reset": String(counter.resetEpochSeconds),
    "x-ratelimit-used": String(counter.used),
    "x-ratelimit-resource": "core",
  };
  // Headers an injected fault already set (e.g. remaining: 0) win.
  for (const [name, value] of Object.entries(defaults)) if (!reply.hasHeader(name)) reply.header(name, value);
}

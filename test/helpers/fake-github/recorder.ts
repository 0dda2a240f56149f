/**
 * What the fake remembers about traffic: every request (without credentials), the faults tests
 * asked it to inject, and every write the bot made (for assertions and for the demo's printout).
 */
import type { FakeIssueComment, FakeReaction } from "./state.js";

/** Which kind of credential a request carried; the token itself is never kept. */
export type TokenKind = "none" | "app_jwt" | "installation" | "user" | "other";

/**
 * Which part of GitHub a request reached. On github.com's layout everything is `api` (REST at the
 * root, or under `/api/v3` as a courtesy) except the web host's downloads (`web`). On an Enterprise
 * Server's layout: `api` under `/api/v3`, `graphql` at `/api/graphql`, `web` for attachments and
 * downloads, and `off` for any other path (answered 404, as GHES answers it).
 */
export type ServedAs = "api" | "graphql" | "web" | "off";

export interface RecordedRequest {
  method: string;
  /** The path as sent, with any `/api/v3` prefix, percent-decoded. */
  sentPath: string;
  servedAs: ServedAs;
  /** Percent-decoded path without query string and without a GitHub Enterprise `/api/v3` prefix. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body, a string for other bodies, undefined when there was none. */
  body: unknown;
  /** Lower-cased request headers, minus `authorization`. */
  headers: Record<string, string>;
  auth: TokenKind;
  status: number;
  /** The fake's route template (e.g. `/repos/:owner/:repo/issues/:issue_number`), null for unknown routes. */
  route: string | null;
  /** True when the answer came from an injected fault. */
  fault: boolean;
  /** Wall-clock time (Date.now(), not the fake's `now`) when the request arrived: for spacing assertions. */
  receivedAt: number;
}

/**
 * A path to match: a RegExp, or a template where `{name}`, `:name` and `*` match one path segment
 * and `**` matches the rest (e.g. `/repos/{owner}/{repo}/issues/{n}/comments`).
 */
export type PathPattern = string | RegExp;

export function pathMatches(pattern: PathPattern, path: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(path);
  return templateToRegExp(pattern).test(path);
}

const templateCache = new Map<string, RegExp>();
function templateToRegExp(template: string): RegExp {
  const cached = templateCache.get(template);
  if (cached) return cached;
  const source = template
    .replace(/\/+$/, "")
    .split("/")
    .map((segment) => {
      if (segment === "**") return ".*";
      if (segment === "*" || /^\{[^}]+\}$/.test(segment) || /^:\w+$/.test(segment)) return "[^/]+";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  const regexp = new RegExp(`^${source}/?$`);
  templateCache.set(template, regexp);
  return regexp;
}

export function methodMatches(expected: string, actual: string): boolean {
  return expected === "*" || expected.toUpperCase() === actual.toUpperCase();
}

export interface FaultSpec {
  method: string;
  path: PathPattern;
  /** How many matching requests get the fault (default 1). */
  times?: number;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface InjectedFault extends Required<Omit<FaultSpec, "headers" | "body">> {
  headers: Record<string, string>;
  body: unknown;
  /** Matching requests still to be answered with this fault. */
  remaining: number;
}

/** GitHub's answer when a client creates content too fast (secondary rate limit). */
export function secondaryRateLimitFault(method: string, path: PathPattern, times = 1, retryAfterSeconds = 1): FaultSpec {
  return {
    method,
    path,
    times,
    status: 403,
    headers: { "retry-after": String(retryAfterSeconds) },
    body: {
      message:
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.",
      documentation_url:
        "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
      status: "403",
    },
  };
}

export type FakeWrite =
  | { kind: "comment_created"; repo: string; issueNumber: number; comment: FakeIssueComment }
  | { kind: "comment_updated"; repo: string; issueNumber: number; comment: FakeIssueComment; previousBody: string }
  | { kind: "comment_deleted"; repo: string; issueNumber: number; comment: FakeIssueComment }
  | { kind: "reaction_added"; repo: string; reaction: FakeReaction };

/** One line per write, for the demo's printout: `acme/widgets#7 comment 1005 created by x[bot]: Working on it…`. */
export function describeWrite(write: FakeWrite, maxBodyChars = 120): string {
  const excerpt = (body: string) => {
    const line = body.replace(/\s+/g, " ").trim();
    return line.length > maxBodyChars ? `${line.slice(0, maxBodyChars - 1)}…` : line;
  };
  switch (write.kind) {
    case "comment_created":
      return `${write.repo}#${write.issueNumber} comment ${write.comment.id} created by ${write.comment.user.login}: ${excerpt(write.comment.body)}`;
    case "comment_updated":
      return `${write.repo}#${write.issueNumber} comment ${write.comment.id} updated: ${excerpt(write.comment.body)}`;
    case "comment_deleted":
      return `${write.repo}#${write.issueNumber} comment ${write.comment.id} deleted`;
    case "reaction_added": {
      const target =
        write.reaction.target.kind === "issue"
          ? `#${write.reaction.target.id}`
          : `${write.reaction.target.kind.replace("_", " ")} ${write.reaction.target.id}`;
      return `${write.repo} ${target} reaction ${write.reaction.content} by ${write.reaction.user.login}`;
    }
  }
}

export function classifyToken(authorization: string | undefined): { kind: TokenKind; valid: boolean } {
  if (authorization === undefined || authorization.trim() === "") return { kind: "none", valid: false };
  const match = /^(token|bearer|basic)\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return { kind: "other", valid: false };
  const token = match[2]!;
  if (/^eyJ[\w-]*\.[\w-]+\.[\w-]*$/.test(token)) return { kind: "app_jwt", valid: true };
  if (token.startsWith("ghs_")) return { kind: "installation", valid: true };
  if (/^(ghp_|gho_|ghu_|github_pat_)/.test(token)) return { kind: "user", valid: true };
  return { kind: "other", valid: true };
}

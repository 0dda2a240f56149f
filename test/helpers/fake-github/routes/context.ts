import type { FastifyRequest } from "fastify";
import type { RenderContext } from "../render.js";
import type { FakeWrite } from "../recorder.js";
import { findRepository, type FakeRepository } from "../state.js";

/** What every route module gets: the state, the render bases and a way to report writes. */
export interface RouteContext extends RenderContext {
  emitWrite(write: FakeWrite): void;
  /** Signs download URLs (job logs, attachments) so they work without a token, like GitHub's. */
  downloadSignature: string;
  /** Where downloads are served: the fake's origin (on an Enterprise Server, its web host; never under `/api/v3`). */
  downloads: string;
}

type RepoParams = { owner: string; repo: string };

export function repositoryOf(ctx: RouteContext, request: FastifyRequest): { repository: FakeRepository; key: string } | undefined {
  const { owner, repo } = request.params as RepoParams;
  const repository = findRepository(ctx.state, `${owner}/${repo}`);
  return repository ? { repository, key: `${repository.owner}/${repository.name}` } : undefined;
}

/** Path ids are integers; anything else names nothing. */
export function intParam(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

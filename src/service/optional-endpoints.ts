/**
 * The list endpoints real deployments add and the spec only mentions (§4.5): the organization's
 * runs and repositories. A client detects them on first use: a 404 or 405 means "not on this
 * deployment", said once, remembered, and not asked again.
 */
import type * as z from "zod/mini";
import type { ServiceLogger } from "./client-options.js";
import { AgentRunError } from "./errors.js";
import { parse } from "./wire-checks.js";

/** The optional endpoints of real deployments that the client detects (spec §4.5, facts.md). */
export type OptionalEndpoint = "listRuns" | "listRepositories";

/** An optional endpoint's answer: a page, or "this deployment has no such endpoint" (404/405, remembered per client). */
export type OptionalListing<P> = { kind: "page"; page: P } | { kind: "unsupported"; endpoint: OptionalEndpoint };

/** What each optional endpoint enables, for the one log line that says it is off. */
const OPTIONAL_FEATURE: Record<OptionalEndpoint, string> = {
  listRuns:
    "finding runs whose create was interrupted (crash recovery) and learning many runs' statuses from one page (watches read each run instead)",
  listRepositories: "finding a repository's repo_id from the service's list",
};

/** A path with its ids as placeholders, for messages: `/v1/organizations/{org_id}/agent/run/{id}/logs`. */
export function pathTemplate(path: string): string {
  return path.replace(/\/organizations\/\d+/, "/organizations/{org_id}").replace(/\/run\/\d+(?=\/|$)/, "/run/{id}");
}

/** One page of an optional endpoint, read by `schema`; `what` names it in errors ("runs page"). */
export interface OptionalRequest<S extends z.ZodMiniType> {
  endpoint: OptionalEndpoint;
  path: string;
  schema: S;
  what: string;
  /** Sends the request and returns the answer's data. */
  fetchPage: () => Promise<unknown>;
}

/** Which optional endpoints one client has found missing. */
export class OptionalEndpoints {
  private readonly unsupported = new Set<OptionalEndpoint>();

  constructor(private readonly logger: ServiceLogger) {}

  isUnsupported(endpoint: OptionalEndpoint): boolean {
    return this.unsupported.has(endpoint);
  }

  async list<S extends z.ZodMiniType>({
    endpoint,
    path,
    schema,
    what,
    fetchPage,
  }: OptionalRequest<S>): Promise<OptionalListing<z.output<S>>> {
    if (this.unsupported.has(endpoint)) return { kind: "unsupported", endpoint };
    let data: unknown;
    try {
      data = await fetchPage();
    } catch (error) {
      if (error instanceof AgentRunError && (error.status === 404 || error.status === 405)) {
        if (!this.unsupported.has(endpoint)) {
          this.unsupported.add(endpoint);
          this.logger.warn(
            `The service has no ${pathTemplate(path)} endpoint (${error.status}): ${OPTIONAL_FEATURE[endpoint]} is off for this client.`,
          );
        }
        return { kind: "unsupported", endpoint };
      }
      throw error;
    }
    return { kind: "page", page: parse(schema, data, what) };
  }
}

/**
 * A run's logs (ALPHA): where the endpoint answers, and every entry from an offset on. Real
 * deployments publish it under `/v1/alpha/` rather than at the spec's path; until one path has
 * answered, a 404 on the spec's is tried again on the alpha one, and the path that answers is kept.
 */
import type { ServiceLogger } from "./client-options.js";
import { NotFoundError } from "./errors.js";
import { pathTemplate } from "./optional-endpoints.js";
import { LOGS_PAGE_MAX, type AgentRunWithLogs, type LogEntry } from "./wire.js";

export type LogsPath = "spec" | "alpha";

/** The logs path one client uses: pinned by its options, or the first that answered. */
export class LogsPathInUse {
  constructor(
    private path: LogsPath | undefined,
    private readonly logger: ServiceLogger,
  ) {}

  /** `spec`, `alpha`, or undefined while not yet detected. */
  get current(): LogsPath | undefined {
    return this.path;
  }

  /**
   * A page from the path in use or, while none is, from the spec's path and on a 404 from the alpha
   * one (`alphaPath` names it in the one line that says so). When both answer 404 the run itself is
   * missing, and the spec path's NotFoundError is thrown.
   */
  async fetch(alphaPath: string, fetchFrom: (which: LogsPath) => Promise<AgentRunWithLogs>): Promise<AgentRunWithLogs> {
    if (this.path) return fetchFrom(this.path);
    let page: AgentRunWithLogs;
    try {
      page = await fetchFrom("spec");
    } catch (specError) {
      if (!(specError instanceof NotFoundError)) throw specError;
      try {
        page = await fetchFrom("alpha");
      } catch (alphaError) {
        throw alphaError instanceof NotFoundError ? specError : alphaError;
      }
      if (!this.path) {
        this.logger.warn(
          `The logs endpoint answers at ${pathTemplate(alphaPath)} (not the spec's path): this client uses that path from now on.`,
        );
      }
      this.path = "alpha";
      return page;
    }
    this.path = "spec";
    return page;
  }
}

/** Every log entry from `skip` on, a page of at most `pageSize` (and the endpoint's maximum) at a time. */
export async function* logEntriesFrom(
  listPage: (skip: number, limit: number) => Promise<AgentRunWithLogs>,
  options: { skip?: number; pageSize?: number },
): AsyncGenerator<LogEntry> {
  const limit = Math.min(options.pageSize ?? LOGS_PAGE_MAX, LOGS_PAGE_MAX);
  let skip = options.skip ?? 0;
  for (;;) {
    const page = await listPage(skip, limit);
    for (const entry of page.logs) yield entry;
    skip += page.logs.length;
    const total = page.total_logs;
    if (page.logs.length < limit) return;
    if (typeof total === "number" && skip >= total) return;
  }
}

/** The service's paths and request addresses, apart from the schemas (wire.ts re-exports them): they load nothing. */

/**
 * Spec §4: every path, in one place. Real deployments serve the ALPHA logs endpoint under
 * `/v1/alpha/`, and offer optional endpoints the spec only mentions (§4.5): the organization's runs
 * and repositories. The client detects those, never assumes them.
 */
export const API_PATHS = {
  createRun: (orgId: number) => `/v1/organizations/${orgId}/agent/run`,
  getRun: (orgId: number, runId: number) => `/v1/organizations/${orgId}/agent/run/${runId}`,
  resumeRun: (orgId: number) => `/v1/organizations/${orgId}/agent/run/resume`,
  runLogs: (orgId: number, runId: number) => `/v1/organizations/${orgId}/agent/run/${runId}/logs`,
  runLogsAlpha: (orgId: number, runId: number) => `/v1/alpha/organizations/${orgId}/agent/run/${runId}/logs`,
  listRuns: (orgId: number) => `/v1/organizations/${orgId}/agent/runs`,
  listRepositories: (orgId: number) => `/v1/organizations/${orgId}/repos`,
} as const;

/** Page size of the optional list endpoints (spec §4.4 and §8 page the logs the same way). */
export const LIST_PAGE_MAX = 100;

/** A request's address as the client sends it: the base without trailing slashes, then the path and the query. */
export function serviceUrl(baseUrl: string, path: string, query: Readonly<Record<string, number | string>> = {}): URL {
  const url = new URL(new URL(baseUrl).toString().replace(/\/+$/, "") + path);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
  return url;
}

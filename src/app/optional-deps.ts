/**
 * The App's server-side packages are optional peer dependencies: `npm install agent-run-bridge` gives
 * the client, the CLI and the emulator without a native build. Every import of code that needs one
 * goes through `loadOptional`, which turns "Cannot find package" into what to install.
 */

export type OptionalPackage =
  | "probot"
  | "better-sqlite3"
  | "ioredis"
  | "bullmq"
  | "prom-client"
  | "@opentelemetry/api"
  | "@opentelemetry/sdk-trace-node"
  | "@opentelemetry/exporter-trace-otlp-http"
  | "@opentelemetry/resources";

/** A feature needs packages that are not installed; the message names them and the command that installs them. */
export class MissingDependencyError extends Error {
  override name = "MissingDependencyError";
  constructor(
    readonly missing: readonly OptionalPackage[],
    feature: string,
    needs: readonly OptionalPackage[],
  ) {
    const notInstalled =
      needs.length === 1
        ? `${needs[0]}, an optional peer dependency of agent-run-bridge that is not installed`
        : `${listOf(needs)}, optional peer dependencies of agent-run-bridge; ${listOf(missing)} ${missing.length === 1 ? "is" : "are"} not installed`;
    super(
      `${feature} needs ${notInstalled}. Install ${missing.length === 1 ? "it" : "them"} beside agent-run-bridge: npm install ${missing.join(" ")}`,
    );
  }
}

/**
 * Runs `load`, an import of code that needs `needs` for `feature` ("the GitHub App (agent-run app)").
 * When one of exactly those packages cannot be found, throws one MissingDependencyError naming every
 * one of them that is missing; any other failure (a package of theirs missing, a broken build) is
 * thrown as it was.
 */
export async function loadOptional<T>(feature: string, needs: readonly OptionalPackage[], load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const absent = missingPackageOf(error);
    const named = needs.find((name) => name === absent);
    if (!named) throw error;
    const missing = needs.filter((name) => name === named || !isInstalled(name));
    throw new MissingDependencyError(missing, feature, needs);
  }
}

/** The package an ERR_MODULE_NOT_FOUND could not find (`Cannot find package 'x' imported from …`). */
function missingPackageOf(error: unknown): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== "ERR_MODULE_NOT_FOUND") return undefined;
  return /Cannot find package '([^']+)'/.exec((error as Error).message)?.[1];
}

/** Resolved from this file, as the App's own imports are. */
function isInstalled(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

function listOf(names: readonly string[]): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

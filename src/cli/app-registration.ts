/**
 * What `agent-run app register` does (commands/app-register.ts defines its flags): everything checked
 * first, the local page served, GitHub's code exchanged, the credentials written whole to a 0600 file.
 */
import { randomBytes } from "node:crypto";
import { accessSync, chmodSync, constants, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import {
  apiUrlOfServer,
  appSettingsOf,
  buildAppManifest,
  checkedHttpUrl,
  installationUrl,
  isGitHubLogin,
  ManifestError,
  registrationPageUrl,
  type RegisteredApp,
} from "../core/app-registration.js";
import { APP_CREDENTIAL_NAMES, mergeEnvText, namesSetIn } from "../core/env-file.js";
import { githubServerAt, type GitHubServer } from "../core/github-hosts.js";
import { convertManifestCode } from "../github/app-manifest.js";
import type { CliContext } from "./context.js";
import { UsageError, WatchInterruptedError } from "./errors.js";
import { serveRegistrationPage } from "./registration-page.js";

export interface RegisterFlags {
  webhookUrl: string;
  name?: string;
  org?: string;
  githubUrl: string;
  public: boolean;
  out: string;
  force: boolean;
  manifest?: string;
  host: string;
  port: number;
}

/** app.yml as shipped in the package (files: app.yml), from src/cli/ and lib/cli/ alike. */
const SHIPPED_MANIFEST = new URL("../../app.yml", import.meta.url);

/** How the App is started once its env file holds the rest (docs/app.md). */
const START_COMMAND = "npx -p agent-run-bridge -p probot -p better-sqlite3 agent-run app --dotenv";

/** What the App needs besides GitHub's, which registration cannot know. */
const SERVICE_SETTINGS = ["AGENT_RUN_API_URL", "AGENT_RUN_API_TOKEN", "AGENT_RUN_ORG_ID"];

interface Plan {
  server: GitHubServer;
  envPath: string;
  existing: string;
  appYml: unknown;
}

/** Everything checked before GitHub is asked anything: a mistake found later would leave an App without its credentials. */
function plan(flags: RegisterFlags, context: CliContext): Plan {
  let server: GitHubServer;
  try {
    server = githubServerAt(flags.githubUrl);
  } catch (error) {
    throw new UsageError(`--github-url: ${(error as Error).message}`);
  }
  if (flags.org !== undefined && !isGitHubLogin(flags.org)) {
    throw new UsageError(`--org "${flags.org}" is not an organization's login (letters, digits and single hyphens).`);
  }
  try {
    checkedHttpUrl(flags.webhookUrl, "--webhook-url");
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (["0.0.0.0", "::", "[::]"].includes(flags.host)) {
    throw new UsageError(
      `--host ${flags.host} listens everywhere but is no address a browser can be sent back to: name one (127.0.0.1, or the machine's address).`,
    );
  }
  const envPath = resolve(context.cwd, flags.out);
  let existing = "";
  if (existsSync(envPath)) {
    existing = readFileSync(envPath, "utf8");
    const held = namesSetIn(existing, APP_CREDENTIAL_NAMES);
    if (held.length > 0 && !flags.force) {
      throw new UsageError(
        `${flags.out} already holds an App's credentials (${held.join(", ")}): pass --force to replace them, or --out another file.`,
      );
    }
  }
  try {
    accessSync(dirname(envPath), constants.W_OK);
  } catch {
    throw new UsageError(`cannot write ${flags.out}: its folder ${dirname(envPath)} is not writable.`);
  }
  const manifestPath = flags.manifest === undefined ? SHIPPED_MANIFEST : resolve(context.cwd, flags.manifest);
  let appYml: unknown;
  try {
    appYml = parseYaml(readFileSync(manifestPath, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read the manifest ${flags.manifest ?? "app.yml"}: ${(error as Error).message}`);
  }
  return { server, envPath, existing, appYml };
}

/** Writes the file whole or not at all, readable by its owner only (a temporary file beside it, then a rename). */
function writePrivateFile(path: string, text: string): void {
  const temporary = resolve(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: "wx" });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

export async function registerApp(flags: RegisterFlags, context: CliContext): Promise<void> {
  const { server, envPath, existing, appYml } = plan(flags, context);
  const state = randomBytes(20).toString("hex");
  const ownerLabel = flags.org === undefined ? "your account" : `the organization ${flags.org}`;
  // Checked now with a stand-in redirect, so a bad app.yml or name fails before anything is served.
  const manifestFor = (redirectUrl: string) => {
    try {
      return buildAppManifest(appYml, { name: flags.name, webhookUrl: flags.webhookUrl, redirectUrl, public: flags.public });
    } catch (error) {
      if (error instanceof ManifestError) throw new UsageError(error.message);
      throw error;
    }
  };
  manifestFor("http://127.0.0.1/callback");

  let settle!: (outcome: { app: RegisteredApp } | { error: Error }) => void;
  const finished = new Promise<{ app: RegisteredApp } | { error: Error }>((resolvePromise) => (settle = resolvePromise));
  const apiUrl = apiUrlOfServer(server);

  // Settled once the browser has the page that tells the outcome, so closing the server cannot cut it off.
  let converted: { app: RegisteredApp } | { error: Error } | undefined;
  const onCode = async (code: string) => {
    try {
      const app = await convertManifestCode(apiUrl, code);
      for (const secret of [app.pem, app.webhookSecret]) context.addSecret(secret);
      const settings = appSettingsOf(app, server, flags.public);
      // The key as written (base64) is as secret as the PEM.
      for (const [name, value] of settings) if (name === "PRIVATE_KEY") context.addSecret(value);
      try {
        writePrivateFile(
          envPath,
          mergeEnvText(existing, settings, `The GitHub App ${app.slug} (agent-run app register)`, ["PRIVATE_KEY_PATH"]),
        );
      } catch (error) {
        throw new Error(
          `GitHub created the App ${app.htmlUrl}, but its credentials could not be saved to ${envPath} ` +
            `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): on the App's settings page, generate a private key ` +
            "and set a webhook secret, and put them with APP_ID in the env file by hand; or delete the App and register again.",
        );
      }
      converted = { app };
      return { ok: true, message: `Saved its credentials to ${flags.out}. Install it on repositories:`, link: installationUrl(app) };
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      converted = { error: failure };
      return { ok: false, message: failure.message };
    }
  };

  let registrationPage;
  try {
    registrationPage = await serveRegistrationPage({
      host: flags.host,
      port: flags.port,
      registrationUrl: registrationPageUrl(server, flags.org, state),
      state,
      ownerLabel,
      manifestFor,
      onCode,
      onAnswered: () => settle(converted!),
      onRefused: (reason) => context.error(`refused ${reason}; still waiting for GitHub's.`),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EADDRINUSE")
      throw new UsageError(`port ${flags.port} is already in use: pass --port with another port (0 = any free port).`);
    if (code === "EADDRNOTAVAIL") throw new UsageError(`cannot listen on --host ${flags.host}: no such local address.`);
    throw error;
  }

  context.error(
    `open ${registrationPage.url} in a browser signed in to ${server.webOrigin}` +
      `${flags.org === undefined ? "" : ` as an owner of ${flags.org}`}, and create the App there. Waiting (Ctrl-C to stop)…`,
  );
  const unsubscribe = context.onSignal((signal) =>
    settle({ error: new WatchInterruptedError(`stopped (${signal}) before GitHub sent the App back: nothing was saved.`, undefined) }),
  );
  const outcome = await finished;
  unsubscribe();
  await registrationPage.close();
  if ("error" in outcome) throw outcome.error;

  const { app } = outcome;
  const written = appSettingsOf(app, server, flags.public).map(([name]) => name);
  const serviceMissing = SERVICE_SETTINGS.filter((name) => !namesSetIn(existing, SERVICE_SETTINGS).includes(name));
  context.out(
    [
      `Registered the GitHub App "${app.name}" (${app.slug}, id ${app.id}) for ${app.ownerLogin}.`,
      `Saved ${written.join(", ")} to ${envPath} (mode 0600).`,
      serviceMissing.length > 0 ? `Add ${serviceMissing.join(", ")} (the Agent Run Service) there, then start it:` : "Start it:",
      `  ${START_COMMAND} ${flags.out}`,
      `Install it on repositories: ${installationUrl(app)}`,
      "",
    ].join("\n"),
  );
}

/**
 * `agent-run app register`: GitHub's App manifest flow from a terminal. A local page posts the
 * manifest (app.yml, with the flags' name and webhook URL) to GitHub; GitHub creates the App and sends
 * the browser back with a code; the code becomes the App's credentials, which go into an env file
 * (mode 0600) and never to the terminal.
 */
import { Option, type Command } from "commander";
import type { RegisterFlags } from "../app-registration.js";
import { parsePort } from "../arguments.js";
import type { CliContext } from "../context.js";

const HELP = `
GitHub creates the App from app.yml's permissions and events after you confirm in a browser signed in to
GitHub (an organization's owner with --org). Its credentials go into --out (default .env, mode 0600):
APP_ID, PRIVATE_KEY (the PEM base64-encoded), WEBHOOK_SECRET, GHE_HOST for an Enterprise Server, and
ALLOWED_OWNERS (the owner) for a private App. An existing file keeps its other lines; one that already
holds an App's credentials is left alone unless --force. No secret is printed.
`;

export function registerAppRegisterCommand(app: Command, context: CliContext): void {
  app
    .command("register")
    .description("register the GitHub App on GitHub from its manifest (app.yml) and save its credentials to an env file")
    .requiredOption(
      "--webhook-url <url>",
      "where GitHub delivers webhooks: your server's address + /api/github/webhooks (or a webhook proxy)",
    )
    .option("--name <name>", "the App's name, unique on GitHub (default: app.yml's; editable on GitHub's page)")
    .option("--org <organization>", "register it for this organization (default: for your own account)")
    .option("--github-url <url>", "GitHub's address: https://github.com, or your Enterprise Server's", "https://github.com")
    .option("--public", "anyone may install it (default: only its owner account)", false)
    .option("--out <path>", "the env file the credentials go to (app --dotenv reads it)", ".env")
    .option("--force", "replace the App credentials already in --out", false)
    .option("--manifest <path>", "another manifest than the package's app.yml")
    .option("--host <host>", "interface of the local page (the browser must reach it)", "127.0.0.1")
    .addOption(new Option("--port <n>", "port of the local page; 0 = any free port").default(0).argParser(parsePort))
    .addHelpText("after", HELP)
    .action(async (flags: RegisterFlags) => {
      // Loaded on demand: the page server, YAML and octokit would slow every other command's start.
      const { registerApp } = await import("../app-registration.js");
      await registerApp(flags, context);
    });
}

/**
 * The local page of `agent-run app register`: on loopback, it shows the manifest and posts it to
 * GitHub's registration page, then takes GitHub's redirect back (`/callback?code=…&state=…`). A
 * redirect whose state is not this registration's is refused (another page may send a browser to a
 * loopback URL), and only the first good code is used. No page ever holds a secret.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppManifest } from "../core/app-registration.js";
import { escapeHtml } from "../core/html.js";

const CALLBACK_PATH = "/callback";

export interface RegistrationPageOptions {
  host: string;
  port: number;
  /** GitHub's registration page, with the state in its query. */
  registrationUrl: string;
  state: string;
  /** Who the App will belong to, for the page's words: "your account" or the organization. */
  ownerLabel: string;
  /** Builds the manifest once the page's own address (its redirect URL) is known. */
  manifestFor(redirectUrl: string): AppManifest;
  /** Takes the code of the first redirect with the right state; resolves to the page's message. */
  onCode(code: string): Promise<{ ok: boolean; message: string; link?: string }>;
  /** The page answering that code has been sent: the command may close the server now. */
  onAnswered(): void;
  /** A refused redirect, for the command's log (never the code). */
  onRefused(reason: string): void;
}

export interface RegistrationPage {
  /** `http://127.0.0.1:port/`. */
  url: string;
  close(): Promise<void>;
}

function page(title: string, body: string, formAction?: string): { html: string; csp: string } {
  // No script at all; the form may go only to GitHub's registration page.
  const csp = `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction ? new URL(formAction).origin : "'none'"}; base-uri 'none'; frame-ancestors 'none'`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}code,pre{font-size:.9em}pre{background:#f6f8fa;padding:1rem;overflow:auto}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return { html, csp };
}

function send(response: ServerResponse, status: number, content: { html: string; csp: string }): void {
  response.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": content.csp,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
  });
  response.end(content.html);
}

function sameState(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function serveRegistrationPage(options: RegistrationPageOptions): Promise<RegistrationPage> {
  let redirectUrl = "";
  let used = false;

  const startPage = () => {
    const manifest = options.manifestFor(redirectUrl);
    return page(
      `Register the GitHub App “${manifest.name}”`,
      `<p>This sends the App's manifest to GitHub, which creates the App for <strong>${escapeHtml(options.ownerLabel)}</strong>
after you confirm there. Webhooks will go to <code>${escapeHtml(manifest.hook_attributes.url)}</code>; GitHub then sends this
browser back here, and <code>agent-run app register</code> saves the App's credentials.</p>
<form method="post" action="${escapeHtml(options.registrationUrl)}">
<input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(manifest))}">
<button type="submit">Create the App on GitHub</button>
</form>
<details><summary>The manifest</summary><pre>${escapeHtml(JSON.stringify(manifest, null, 2))}</pre></details>`,
      options.registrationUrl,
    );
  };

  const callback = async (url: URL, response: ServerResponse) => {
    const code = url.searchParams.get("code") ?? "";
    const state = url.searchParams.get("state") ?? "";
    if (!sameState(state, options.state) || code === "") {
      options.onRefused(code === "" ? "a redirect without a code" : "a redirect whose state is not this registration's");
      send(
        response,
        400,
        page(
          "Not this registration",
          "<p>This link does not come from the registration that <code>agent-run app register</code> started (its state does not match), so nothing was done with it. The command is still waiting.</p>",
        ),
      );
      return;
    }
    if (used) {
      send(response, 409, page("Already done", "<p>This registration's code was already used. Look in the terminal for the outcome.</p>"));
      return;
    }
    used = true;
    const outcome = await options.onCode(code);
    const link = outcome.link ? `<p><a href="${escapeHtml(outcome.link)}">${escapeHtml(outcome.link)}</a></p>` : "";
    response.once("finish", () => options.onAnswered());
    send(
      response,
      outcome.ok ? 200 : 502,
      page(outcome.ok ? "The App is registered" : "The registration did not finish", `<p>${escapeHtml(outcome.message)}</p>${link}`),
    );
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET" }).end();
      return;
    }
    if (url.pathname === "/") return send(response, 200, startPage());
    if (url.pathname === CALLBACK_PATH) return callback(url, response);
    response.writeHead(404, { "content-type": "text/plain" }).end("Not found\n");
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;
  redirectUrl = `${origin}${CALLBACK_PATH}`;
  return {
    url: `${origin}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * GitHub's App manifest flow: the web page that takes a posted `manifest` (for the signed-in user at
 * `/settings/apps/new`, or for an organization at `/organizations/:org/settings/apps/new`), asks the
 * person to confirm, creates the App and redirects to the manifest's `redirect_url` with `code` and
 * `state`; and `POST /app-manifests/:code/conversions` (no authentication), which answers the App
 * with its `pem`, `webhook_secret` and client secret, once per code and within an hour.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../http.js";
import { renderApp } from "../render.js";
import type { FakeApp, FakeManifestApp } from "../state.js";
import type { RouteContext } from "./context.js";

/** Who is signed in to the fake's web pages: the owner of Apps registered for "your account". */
export const FAKE_SIGNED_IN_USER = "octocat";
/** How long GitHub honours a registration's code. */
export const MANIFEST_CODE_TTL_MS = 60 * 60 * 1000;
/** The fake's own confirmation step (GitHub's page posts its form somewhere of its own, too). */
const CONFIRM_PATH = "/settings/apps/manifest-confirm";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function htmlPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

function formOf(request: FastifyRequest): URLSearchParams {
  return new URLSearchParams(typeof request.body === "string" ? request.body : "");
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** What GitHub's page refuses in a manifest, as one sentence (undefined: acceptable). */
function manifestProblem(manifest: unknown): string | undefined {
  if (typeof manifest !== "object" || manifest === null) return "The manifest is not a JSON object.";
  const m = manifest as Record<string, unknown>;
  if (typeof m.name !== "string" || m.name.trim() === "") return "Name can't be blank.";
  if (!isHttpUrl(m.url)) return "Homepage URL is not a valid URL.";
  if (!isHttpUrl(m.redirect_url)) return "Redirect URL is not a valid URL.";
  const hook = m.hook_attributes as { url?: unknown } | undefined;
  if (!isHttpUrl(hook?.url)) return "Webhook URL is not a valid URL.";
  return undefined;
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

export function registerAppManifestRoutes(app: FastifyInstance, ctx: RouteContext): void {
  // The form GitHub shows for a posted manifest: the name may still be changed, then "Create GitHub App for <owner>".
  const newAppPage =
    (owner: string, registeredFor: FakeManifestApp["registeredFor"]) => async (request: FastifyRequest, reply: FastifyReply) => {
      const text = formOf(request).get("manifest");
      let manifest: unknown;
      try {
        manifest = JSON.parse(text ?? "");
      } catch {
        return htmlPage(reply, 422, "Invalid GitHub App manifest", "<p>The manifest is not valid JSON.</p>");
      }
      const problem = manifestProblem(manifest);
      if (problem) return htmlPage(reply, 422, "Invalid GitHub App manifest", `<p>${escapeHtml(problem)}</p>`);
      const state = (request.query as Record<string, string | undefined>).state;
      const name = (manifest as { name: string }).name;
      return htmlPage(
        reply,
        200,
        `Create GitHub App for ${owner}`,
        `<form method="post" action="${CONFIRM_PATH}">
<label>GitHub App name <input name="name" value="${escapeHtml(name)}"></label>
<input type="hidden" name="manifest" value="${escapeHtml(text!)}">
<input type="hidden" name="owner" value="${escapeHtml(owner)}">
<input type="hidden" name="registered_for" value="${registeredFor}">
${state === undefined ? "" : `<input type="hidden" name="state" value="${escapeHtml(state)}">`}
<button type="submit">Create GitHub App for ${escapeHtml(owner)}</button>
</form>`,
      );
    };

  app.post("/settings/apps/new", { config: { public: true } }, newAppPage(FAKE_SIGNED_IN_USER, "user"));
  app.post("/organizations/:org/settings/apps/new", { config: { public: true } }, (request, reply) =>
    newAppPage((request.params as { org: string }).org, "organization")(request, reply),
  );

  app.post(CONFIRM_PATH, { config: { public: true } }, async (request, reply) => {
    const form = formOf(request);
    const manifest = JSON.parse(form.get("manifest") ?? "{}") as Record<string, unknown>;
    const name = (form.get("name") ?? "").trim() || String(manifest.name);
    const owner = form.get("owner") ?? FAKE_SIGNED_IN_USER;
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const created: FakeApp = { id: ctx.state.nextId++, slug: slugOf(name), name, owner };
    const registration: FakeManifestApp = {
      app: created,
      manifest,
      registeredFor: form.get("registered_for") === "organization" ? "organization" : "user",
      state: form.get("state") ?? undefined,
      code: randomBytes(10).toString("hex"),
      codeCreatedAt: ctx.state.now(),
      codeUsed: false,
      pem: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
      publicKey,
      webhookSecret: randomBytes(20).toString("hex"),
      clientSecret: randomBytes(20).toString("hex"),
    };
    ctx.state.manifestApps.push(registration);
    const target = new URL(String(manifest.redirect_url));
    target.searchParams.set("code", registration.code);
    if (registration.state !== undefined) target.searchParams.set("state", registration.state);
    return reply.redirect(target.href, 302);
  });

  app.post("/app-manifests/:code/conversions", { config: { public: true } }, async (request, reply) => {
    const { code } = request.params as { code: string };
    const registration = ctx.state.manifestApps.find((candidate) => candidate.code === code);
    const expired = registration && ctx.state.now().getTime() - registration.codeCreatedAt.getTime() > MANIFEST_CODE_TTL_MS;
    if (!registration || registration.codeUsed || expired) return notFound(reply);
    registration.codeUsed = true;
    // From now on the fake is this App: GET /app answers it, to its own key's JWTs only.
    ctx.state.app = registration.app;
    ctx.state.appPublicKey = registration.publicKey;
    return reply.code(201).send({
      ...(renderApp(ctx, registration.app) as object),
      client_id: `Iv1.${registration.app.id.toString(16).padStart(16, "0")}`,
      client_secret: registration.clientSecret,
      webhook_secret: registration.webhookSecret,
      pem: registration.pem,
    });
  });
}

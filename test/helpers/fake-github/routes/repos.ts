/** Apps and installations, repositories, file contents, collaborator permissions, team memberships. */
import { createHash, randomBytes, verify, type KeyObject } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DOCS, notFound, paginate, queryOf } from "../http.js";
import { APP_PERMISSIONS, renderApp, renderInstallation, renderRepository, renderUser } from "../render.js";
import { isoSeconds, resolveUser, sameName, type FakeFile, type RepoPermission } from "../state.js";
import { intParam, repositoryOf, type RouteContext } from "./context.js";

export function registerRepositoryRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get("/app", async (request, reply) => {
    // An App registered through the manifest flow answers only JWTs its own key signed for its own id.
    if (ctx.state.appPublicKey && !isAppJwtOf(request.headers.authorization, ctx.state.app.id, ctx.state.appPublicKey)) {
      return reply.code(401).send({ message: "A JSON web token could not be decoded", documentation_url: DOCS, status: "401" });
    }
    return renderApp(ctx, ctx.state.app);
  });

  const installationOf = (request: FastifyRequest) => {
    const id = intParam((request.params as { installation_id: string }).installation_id);
    return ctx.state.installations.find((installation) => installation.id === id);
  };

  app.get("/app/installations", async () =>
    ctx.state.installations.map((installation) => renderInstallation(ctx, installation, ctx.state.app)),
  );

  app.get("/app/installations/:installation_id", async (request, reply) => {
    const installation = installationOf(request);
    if (!installation) return notFound(reply);
    return renderInstallation(ctx, installation, ctx.state.app);
  });

  // Which installation each token was made for: `GET /installation/repositories` answers for its own.
  const tokenInstallations = new Map<string, number>();

  app.post("/app/installations/:installation_id/access_tokens", async (request, reply) => {
    const installation = installationOf(request);
    if (!installation) return notFound(reply);
    const expires = new Date(ctx.state.now().getTime() + 60 * 60 * 1000);
    const token = `ghs_${randomBytes(18).toString("hex")}`;
    tokenInstallations.set(token, installation.id);
    return reply.code(201).send({
      token,
      expires_at: isoSeconds(expires),
      permissions: APP_PERMISSIONS,
      repository_selection: "all",
    });
  });

  // An installation's repositories: another installation's account's own, the first installation every other one.
  app.get("/installation/repositories", async (request, reply) => {
    const token = (request.headers.authorization ?? "").split(/\s+/).at(-1) ?? "";
    const installationId = tokenInstallations.get(token);
    if (installationId === undefined)
      return reply.code(401).send({ message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
    const others = ctx.state.installations.filter((i) => i.id !== ctx.state.installation.id);
    const ownedBy = (account: string, owner: string) => sameName(account, owner);
    const repositories = ctx.state.repositories.filter((r) =>
      installationId === ctx.state.installation.id
        ? !others.some((i) => ownedBy(i.account, r.owner))
        : others.some((i) => i.id === installationId && ownedBy(i.account, r.owner)),
    );
    const page = paginate(request, reply, ctx.api, repositories);
    return { total_count: repositories.length, repository_selection: "all", repositories: page.map((r) => renderRepository(ctx, r)) };
  });

  app.get("/repos/:owner/:repo/installation", async (request, reply) => {
    // The one installation covers every repository the fake knows.
    if (!repositoryOf(ctx, request)) return notFound(reply);
    return renderInstallation(ctx, ctx.state.installation, ctx.state.app);
  });

  app.get("/repos/:owner/:repo", async (request, reply) => {
    const found = repositoryOf(ctx, request);
    if (!found) return notFound(reply);
    // Like GitHub: an ETag of the answer, and 304 (no body) while If-None-Match still matches.
    const body = renderRepository(ctx, found.repository);
    const etag = `W/"${createHash("sha1").update(JSON.stringify(body)).digest("hex")}"`;
    reply.header("etag", etag);
    if (request.headers["if-none-match"] === etag) return reply.code(304).send();
    return body;
  });

  const contents = async (request: FastifyRequest, reply: FastifyReply) => {
    const found = repositoryOf(ctx, request);
    if (!found) return notFound(reply);
    const path = ((request.params as { "*"?: string })["*"] ?? "").replace(/^\/+|\/+$/g, "");
    const ref = queryOf(request).ref ?? found.repository.default_branch;
    const onRef = ctx.state.files.filter((f) => f.repo === found.key && f.ref === ref);
    const file = onRef.find((f) => f.path === path);
    const accept = request.headers.accept ?? "";
    if (file) {
      // Like GitHub: a weak ETag per content and format, and 304 (no body) when If-None-Match still matches.
      const raw = /application\/vnd\.github(\.v3)?\.raw/.test(accept);
      const etag = `W/"${gitBlobSha(file.content)}${raw ? "-raw" : ""}"`;
      reply.header("etag", etag);
      if (request.headers["if-none-match"] === etag) return reply.code(304).send();
      if (raw) {
        return reply.type("application/vnd.github.raw; charset=utf-8").send(file.content);
      }
      return { ...contentEntry(ctx, file, "file"), encoding: "base64", content: wrapBase64(file.content) };
    }
    // A directory: GitHub lists its direct children as JSON, whatever the Accept header says.
    const prefix = path === "" ? "" : `${path}/`;
    const children = new Map<string, ReturnType<typeof contentEntry>>();
    for (const f of onRef.filter((f) => f.path.startsWith(prefix))) {
      const rest = f.path.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash === -1) children.set(rest, contentEntry(ctx, f, "file"));
      else {
        const dirPath = `${prefix}${rest.slice(0, slash)}`;
        children.set(rest.slice(0, slash), contentEntry(ctx, { ...f, path: dirPath, content: Buffer.alloc(0) }, "dir"));
      }
    }
    if (children.size === 0) return notFound(reply);
    return [...children.values()];
  };
  app.get("/repos/:owner/:repo/contents", contents);
  app.get("/repos/:owner/:repo/contents/*", contents);

  app.get("/repos/:owner/:repo/collaborators/:username/permission", async (request, reply) => {
    const found = repositoryOf(ctx, request);
    const { username } = request.params as { username: string };
    if (!found) return notFound(reply);
    const collaborator = ctx.state.collaborators.find((c) => c.repo === found.key && sameName(c.login, username));
    if (!collaborator) return notFound(reply);
    const user = resolveUser(ctx.state, collaborator.login);
    const role = collaborator.permission;
    return {
      permission: LEGACY_PERMISSION[role],
      role_name: role === "none" ? "none" : role,
      user: {
        ...renderUser(ctx, user),
        permissions: {
          admin: atLeast(role, "admin"),
          maintain: atLeast(role, "maintain"),
          push: atLeast(role, "write"),
          triage: atLeast(role, "triage"),
          pull: atLeast(role, "read"),
        },
        role_name: role,
      },
    };
  });

  app.get("/orgs/:org/teams/:team_slug/memberships/:username", async (request, reply) => {
    const { org, team_slug, username } = request.params as { org: string; team_slug: string; username: string };
    const team = ctx.state.teams.find((t) => sameName(t.org, org) && sameName(t.slug, team_slug));
    const member = team?.members.find((m) => sameName(m.login, username));
    if (!team || !member) return notFound(reply);
    return {
      url: `${ctx.api}/organizations/${encodeURIComponent(org)}/team/${encodeURIComponent(team.slug)}/memberships/${encodeURIComponent(member.login)}`,
      role: member.role,
      state: member.state,
    };
  });
}

/** The `permission` field keeps GitHub's old three levels: maintain reads as write, triage as read. */
const LEGACY_PERMISSION: Record<RepoPermission, "admin" | "write" | "read" | "none"> = {
  admin: "admin",
  maintain: "write",
  write: "write",
  triage: "read",
  read: "read",
  none: "none",
};
const RANK: Record<RepoPermission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };
function atLeast(role: RepoPermission, minimum: RepoPermission): boolean {
  return RANK[role] >= RANK[minimum];
}

function contentEntry(ctx: RouteContext, file: FakeFile, type: "file" | "dir") {
  const sha = type === "file" ? gitBlobSha(file.content) : createHash("sha1").update(`tree:${file.path}`).digest("hex");
  const url = `${ctx.api}/repos/${file.repo}/contents/${file.path}?ref=${encodeURIComponent(file.ref)}`;
  const html = `${ctx.html}/${file.repo}/${type === "file" ? "blob" : "tree"}/${file.ref}/${file.path}`;
  const git = `${ctx.api}/repos/${file.repo}/git/${type === "file" ? "blobs" : "trees"}/${sha}`;
  return {
    type,
    name: file.path.split("/").pop() ?? file.path,
    path: file.path,
    sha,
    size: type === "file" ? file.content.length : 0,
    url,
    html_url: html,
    git_url: git,
    download_url: type === "file" ? `https://raw.githubusercontent.com/${file.repo}/${file.ref}/${file.path}` : null,
    _links: { self: url, git, html },
  };
}

function gitBlobSha(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

/** GitHub wraps base64 content at 60 characters per line. */
function wrapBase64(content: Buffer): string {
  const b64 = content.toString("base64");
  return (b64.match(/.{1,60}/g) ?? []).map((line) => `${line}\n`).join("");
}

/** An RS256 JWT signed by `key` whose `iss` is the App's id (as Probot issues them). */
function isAppJwtOf(authorization: string | undefined, appId: number, key: KeyObject): boolean {
  const token = /^bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  const [header, payload, signature] = token?.split(".") ?? [];
  if (!header || !payload || !signature) return false;
  if (!verify("RSA-SHA256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"))) return false;
  try {
    return String((JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { iss?: unknown }).iss) === String(appId);
  } catch {
    return false;
  }
}

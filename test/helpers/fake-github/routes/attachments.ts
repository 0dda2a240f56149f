/** Images users paste into comments: github.com/user-attachments/assets/{uuid}, served by the fake. */
import type { FastifyInstance } from "fastify";
import { queryOf } from "../http.js";
import type { RouteContext } from "./context.js";

export const ATTACHMENT_PATH = "/user-attachments/assets";
export const ATTACHMENT_DOWNLOAD_PATH = "/_fake/attachments";

export function registerAttachmentRoutes(app: FastifyInstance, ctx: RouteContext): void {
  // Like github.com: the asset URL redirects to a short-lived signed download; assets of private
  // repositories answer 404 to anonymous requests.
  app.get(`${ATTACHMENT_PATH}/:id`, { config: { optionalAuth: true } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const attachment = ctx.state.attachments.find((a) => a.id === id);
    if (!attachment || (attachment.private && !request.headers.authorization)) {
      return reply.code(404).type("text/plain; charset=utf-8").send("Not Found");
    }
    return reply.code(302).header("location", `${ctx.downloads}${ATTACHMENT_DOWNLOAD_PATH}/${id}?sig=${ctx.downloadSignature}`).send();
  });

  app.get(`${ATTACHMENT_DOWNLOAD_PATH}/:id`, { config: { public: true } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const attachment = ctx.state.attachments.find((a) => a.id === id);
    if (queryOf(request).sig !== ctx.downloadSignature) return reply.code(403).type("text/plain").send("Signature invalid");
    if (!attachment) return reply.code(404).type("text/plain").send("Not Found");
    return reply.type(attachment.content_type).header("content-length", attachment.bytes.length).send(attachment.bytes);
  });
}

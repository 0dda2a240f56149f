import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createPng } from "../../helpers/fake-github/index.js";
import { downloadImagesAsDataUris, type SkippedImage } from "../../../src/github/index.js";
import { ImageDataUriSchema } from "../../../src/service/wire.js";
import { startFake } from "./setup.js";

const png = createPng({ width: 2, height: 2 });
const bigPng = createPng({ padToBytes: 5_000 });

/** A plain HTTP server for what the fake never does: bodies without content-length, odd types, cross-origin redirects. */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});
async function startOddServer(routes: Record<string, (res: import("node:http").ServerResponse) => void>): Promise<string> {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ""];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    route(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("downloadImagesAsDataUris", () => {
  it("turns attachment URLs into data URIs the service accepts, following GitHub's redirect", async () => {
    const fake = await startFake();
    const url = fake.addAttachment(png, "image/png");
    const images = await downloadImagesAsDataUris([url, url], { maxCount: 5, maxBytes: 100_000 });
    expect(images).toEqual([`data:image/png;base64,${png.toString("base64")}`]);
    expect(ImageDataUriSchema.safeParse(images[0]).success).toBe(true);
    const id = url.split("/").pop();
    expect(fake.requests.map((r) => `${r.path} ${r.status}`)).toEqual([
      `/user-attachments/assets/${id} 302`,
      `/_fake/attachments/${id} 200`,
    ]);
  });

  it("stops at maxCount and says why for the rest, without downloading them", async () => {
    const fake = await startFake();
    const urls = [fake.addAttachment(png, "image/png"), fake.addAttachment(png, "image/png"), fake.addAttachment(png, "image/png")];
    const skipped: SkippedImage[] = [];
    const images = await downloadImagesAsDataUris(urls, { maxCount: 2, maxBytes: 100_000, onSkip: (s) => skipped.push(s) });
    expect(images).toHaveLength(2);
    expect(skipped).toEqual([{ url: urls[2], reason: "more than 2 images; only the first 2 are sent" }]);
    expect(fake.callsTo("GET", "/user-attachments/assets/*")).toHaveLength(2);
  });

  it("skips images over maxBytes, by content-length or while reading an unannounced body", async () => {
    const fake = await startFake();
    const announced = fake.addAttachment(bigPng, "image/png");
    const odd = await startOddServer({
      "/chunked.png": (res) => {
        res.writeHead(200, { "content-type": "image/png", "transfer-encoding": "chunked" });
        for (let i = 0; i < bigPng.length; i += 1000) res.write(bigPng.subarray(i, i + 1000));
        res.end();
      },
    });
    const skipped: SkippedImage[] = [];
    const images = await downloadImagesAsDataUris([announced, `${odd}/chunked.png`], {
      maxCount: 5,
      maxBytes: 4_000,
      onSkip: (s) => skipped.push(s),
    });
    expect(images).toEqual([]);
    expect(skipped.map((s) => s.reason)).toEqual([
      `${bigPng.length} bytes is larger than the limit of 4000 bytes`,
      "larger than the limit of 4000 bytes",
    ]);
    // Within the limit, the same images are fine.
    expect(await downloadImagesAsDataUris([announced, `${odd}/chunked.png`], { maxCount: 5, maxBytes: 10_000 })).toHaveLength(2);
  });

  it("refuses what is not an image: other content types, and unlabelled bytes that are not an image", async () => {
    const fake = await startFake();
    const html = fake.addAttachment(Buffer.from("<html>login</html>"), "text/html; charset=utf-8");
    const svg = fake.addAttachment(Buffer.from("<svg/>"), "image/svg+xml");
    const odd = await startOddServer({
      "/png-as-octets": (res) => res.writeHead(200, { "content-type": "application/octet-stream" }).end(png),
      "/text-as-octets": (res) => res.writeHead(200, { "content-type": "application/octet-stream" }).end("hello"),
    });
    const skipped: SkippedImage[] = [];
    const images = await downloadImagesAsDataUris(
      [html, svg, `${odd}/png-as-octets`, `${odd}/text-as-octets`, "ftp://example.com/a.png", `${odd}/missing.png`],
      {
        maxCount: 10,
        maxBytes: 100_000,
        onSkip: (s) => skipped.push(s),
      },
    );
    expect(images).toEqual([`data:image/png;base64,${png.toString("base64")}`]);
    expect(skipped.map((s) => s.reason)).toEqual([
      "content type text/html is not a supported image (image/png, image/jpeg, image/gif, image/webp)",
      "content type image/svg+xml is not a supported image (image/png, image/jpeg, image/gif, image/webp)",
      "the bytes are not a PNG, JPEG, GIF or WebP image",
      "not an http(s) URL",
      "download answered HTTP 404",
    ]);
  });

  it("sends the token only to the origins it belongs to, re-deciding at every redirect", async () => {
    const fake = await startFake();
    const secret = fake.addAttachment(png, "image/png", { private: true });
    const odd = await startOddServer({ "/bounce": (res) => res.writeHead(302, { location: secret }).end() });

    // The token is for github.com by default: the fake (another origin) never sees it.
    const skipped: SkippedImage[] = [];
    expect(
      await downloadImagesAsDataUris([secret], { token: "ghs_secret", maxCount: 1, maxBytes: 100_000, onSkip: (s) => skipped.push(s) }),
    ).toEqual([]);
    expect(skipped[0]!.reason).toBe("download answered HTTP 404");
    expect(fake.requests.map((r) => r.auth)).toEqual(["none"]);

    // Trusted for the fake's origin: it is sent there, and the download works.
    fake.clearRequests();
    const images = await downloadImagesAsDataUris([secret], {
      token: "ghs_secret",
      tokenOrigins: [fake.url],
      maxCount: 1,
      maxBytes: 100_000,
    });
    expect(images).toHaveLength(1);
    expect(fake.requests.map((r) => `${r.route} ${r.auth} ${r.status}`)).toEqual([
      "/user-attachments/assets/:id installation 302",
      "/_fake/attachments/:id installation 200",
    ]);

    // Trusted for the redirecting server only: the redirect target does not get it.
    fake.clearRequests();
    expect(
      await downloadImagesAsDataUris([`${odd}/bounce`], { token: "ghs_secret", tokenOrigins: [odd], maxCount: 1, maxBytes: 100_000 }),
    ).toEqual([]);
    expect(fake.requests.map((r) => `${r.auth} ${r.status}`)).toEqual(["none 404"]);
  });
});

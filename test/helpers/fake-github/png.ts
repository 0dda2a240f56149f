/** Small, valid PNG images for seeding attachments (tests and the demo need real image bytes). */
import { crc32, deflateSync } from "node:zlib";

/**
 * A solid-colour PNG of `width`×`height`. `padToBytes` appends a private ancillary chunk so the
 * file reaches at least that size while staying a valid PNG (decoders skip unknown chunks).
 */
export function createPng(options: { width?: number; height?: number; rgb?: [number, number, number]; padToBytes?: number } = {}): Buffer {
  const width = options.width ?? 1;
  const height = options.height ?? 1;
  const [r, g, b] = options.rgb ?? [0x2f, 0x81, 0xf7];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, RGB, default compression, filter and interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", pixels)];
  const size = parts.reduce((n, p) => n + p.length, 0) + 12; // + IEND
  if (options.padToBytes !== undefined && options.padToBytes > size) {
    parts.push(chunk("zpAd", Buffer.alloc(Math.max(0, options.padToBytes - size - 12))));
  }
  parts.push(chunk("IEND", Buffer.alloc(0)));
  return Buffer.concat(parts);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0, 0);
  return Buffer.concat([length, typeAndData, crc]);
}

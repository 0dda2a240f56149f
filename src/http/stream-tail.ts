/**
 * The last bytes of a body of any size, read as a stream: chunks are kept only while the ones after
 * them hold fewer than `maxBytes`, so a 256 MiB log costs what its tail costs (bench/log-tail.ts).
 */

export interface StreamTail {
  /** At most `maxBytes`: the end of the body. */
  bytes: Buffer;
  /** Every byte the body had. */
  totalBytes: number;
}

export async function readStreamTail(chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<StreamTail> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let totalBytes = 0;
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    totalBytes += bytes.length;
    kept.push(bytes);
    keptBytes += bytes.length;
    // Drop the oldest chunk while the rest still covers the tail.
    while (kept.length > 1 && keptBytes - kept[0]!.length >= maxBytes) keptBytes -= kept.shift()!.length;
  }
  const all = Buffer.concat(kept, keptBytes);
  return { bytes: all.length > maxBytes ? all.subarray(all.length - maxBytes) : all, totalBytes };
}

import { describe, expect, it } from "vitest";
import { readStreamTail } from "../../../src/http/stream-tail.js";

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe("readStreamTail", () => {
  it("keeps the last maxBytes of many chunks and counts every byte", async () => {
    const tail = await readStreamTail(chunks("aaaa", "bbbb", "cccc", "dd"), 5);
    expect(tail.bytes.toString()).toBe("ccc" + "dd");
    expect(tail.totalBytes).toBe(14);
  });

  it("cuts inside a chunk larger than the tail, and keeps a short body whole", async () => {
    expect((await readStreamTail(chunks("0123456789"), 3)).bytes.toString()).toBe("789");
    expect(await readStreamTail(chunks("ab", "c"), 10)).toEqual({ bytes: Buffer.from("abc"), totalBytes: 3 });
    expect(await readStreamTail(chunks(), 10)).toEqual({ bytes: Buffer.alloc(0), totalBytes: 0 });
  });
});

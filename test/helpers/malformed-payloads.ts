/**
 * Malformed deliveries made deterministically from a seed: real payloads from
 * @octokit/webhooks-examples (pointed at the seeded repository and installation), each changed by
 * one to three mutations: the installation, repository or sender dropped or of the wrong kind,
 * numbers as text, nulls, lists where objects are read, nesting thousands of levels deep, huge
 * strings within GitHub's 25 MiB cap, a body that is not an object or not JSON at all. The same seed
 * gives the same deliveries, so a failure is reproduced from the seed it prints. Used by the fuzz
 * test (test/integration/app/malformed-fuzz.test.ts) and the memory benchmark (bench/malformed.ts).
 */
import type { WebhookEventName } from "@octokit/webhooks-types";
import { seededRandom } from "../../src/emulator/random.js";
import { everyExample } from "./app-payloads.js";

export interface MalformedDelivery {
  event: string;
  /** The exact body to sign and send. */
  body: string;
  /** What was done to the example, for a failure's message. */
  mutations: string[];
  /** Bytes of the huge strings put in (a benchmark's well-formed baseline carries as many). */
  hugeStringBytes: number;
}

type Json = Record<string, unknown>;

/** A placeholder a mutation leaves in the payload and that is replaced in the JSON text (nesting too deep to build as objects). */
const SPLICE = "\u0000splice\u0000";

interface Draft {
  payload: unknown;
  /** The sizes a huge string is picked from, and the bytes of those put in so far. */
  hugeSizes: readonly number[];
  hugeBytes: number;
  /** Replaces the quoted SPLICE in the text, if set. */
  splice: string | null;
}

/** A long list's first items are mutation targets enough (walking all of 120,000 of them each time is not). */
const ITEMS_WALKED = 20;

/** Every path to a value in the payload (of a list, its first ITEMS_WALKED items), found without recursion. */
function pathsOf(root: unknown): Array<{ path: Array<string | number>; value: unknown }> {
  const found: Array<{ path: Array<string | number>; value: unknown }> = [];
  const stack: Array<{ path: Array<string | number>; value: unknown }> = [{ path: [], value: root }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.path.length > 0) found.push(entry);
    if (entry.value !== null && typeof entry.value === "object") {
      const entries = Array.isArray(entry.value) ? entry.value.slice(0, ITEMS_WALKED).entries() : Object.entries(entry.value);
      for (const [key, value] of entries) {
        stack.push({ path: [...entry.path, Array.isArray(entry.value) ? Number(key) : key], value });
      }
    }
  }
  return found;
}

function setAt(root: unknown, path: Array<string | number>, value: unknown): void {
  let current = root as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) current = current[segment] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === undefined) delete current[last];
  else current[last] = value;
}

const WRONG_KINDS: unknown[] = [null, "text", "42", 42, -1, 0, 1.5, true, [], [1, 2], {}, { id: "42" }];
/** Huge for a field, small for the fuzz's time: the test adds one body just under the 25 MiB cap. */
const HUGE_STRING_BYTES: readonly number[] = [64 * 1024, 1024 * 1024, 2 * 1024 * 1024];
/** Levels of nesting added below the payload's top level (the App takes 64 in all). */
const DEPTHS = [10, 62, 64, 1_000, 2_000, 5_000];

interface Mutation {
  name: string;
  apply(draft: Draft, random: () => number, pick: <T>(list: readonly T[]) => T): string;
}

function topLevel(draft: Draft): Json | null {
  return draft.payload !== null && typeof draft.payload === "object" && !Array.isArray(draft.payload) ? (draft.payload as Json) : null;
}

/** Drops or mistypes one top-level object the App reads. */
function mistype(field: string): Mutation {
  return {
    name: `mistype ${field}`,
    apply(draft, _random, pick) {
      const payload = topLevel(draft);
      if (!payload) return `${field}: no object to change`;
      const choice = pick(["drop", "id", ...WRONG_KINDS.map((_, i) => i)] as const);
      if (choice === "drop") {
        delete payload[field];
        return `${field} dropped`;
      }
      if (choice === "id") {
        const id = pick(WRONG_KINDS);
        payload[field] = { ...(payload[field] as Json), id };
        return `${field}.id = ${JSON.stringify(id)}`;
      }
      payload[field] = WRONG_KINDS[choice];
      return `${field} = ${JSON.stringify(WRONG_KINDS[choice])}`;
    },
  };
}

function leafMutation(
  name: string,
  matches: (value: unknown) => boolean,
  replace: (value: unknown, pick: <T>(list: readonly T[]) => T) => unknown,
): Mutation {
  return {
    name,
    apply(draft, _random, pick) {
      const candidates = pathsOf(draft.payload).filter((entry) => matches(entry.value));
      if (candidates.length === 0) return `${name}: nothing to change`;
      const { path, value } = pick(candidates);
      setAt(draft.payload, path, replace(value, pick));
      return `${name} at ${path.join(".")}`;
    },
  };
}

const MUTATIONS: Mutation[] = [
  mistype("installation"),
  mistype("repository"),
  mistype("sender"),
  leafMutation(
    "number as text",
    (v) => typeof v === "number",
    (v) => String(v),
  ),
  leafMutation(
    "null",
    () => true,
    () => null,
  ),
  leafMutation(
    "dropped",
    () => true,
    () => undefined,
  ),
  leafMutation(
    "list for an object",
    (v) => v !== null && typeof v === "object" && !Array.isArray(v),
    (v, pick) => pick([[], [v], [1, "a"]]),
  ),
  leafMutation(
    "object for a list",
    (v) => Array.isArray(v),
    () => ({ length: 1 }),
  ),
  leafMutation(
    "wrong kind",
    () => true,
    (_v, pick) => pick(WRONG_KINDS),
  ),
  leafMutation(
    "long list",
    (v) => Array.isArray(v),
    (_v, pick) => Array.from({ length: pick([1_001, 5_000, 120_000]) }, () => ({ name: 1 })),
  ),
  {
    name: "deep nesting",
    apply(draft, random, pick) {
      const depth = pick(DEPTHS);
      const payload = topLevel(draft);
      if (!payload) return "deep nesting: no object";
      payload.nested = SPLICE;
      const list = random() < 0.5;
      draft.splice = list ? `${"[".repeat(depth)}1${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
      return `nested ${depth} levels of ${list ? "lists" : "objects"}`;
    },
  },
  {
    name: "huge string",
    apply(draft, _random, pick) {
      const candidates = pathsOf(draft.payload).filter((entry) => typeof entry.value === "string");
      if (candidates.length === 0) return "huge string: nothing to change";
      const { path } = pick(candidates);
      const bytes = pick(draft.hugeSizes);
      setAt(draft.payload, path, "x".repeat(bytes));
      draft.hugeBytes += bytes;
      return `huge string (${bytes} bytes) at ${path.join(".")}`;
    },
  },
  {
    name: "not an object",
    apply(draft, _random, pick) {
      draft.payload = pick([null, [], "created", 7, true, [draft.payload]]);
      return `payload = ${Array.isArray(draft.payload) ? "a list" : JSON.stringify(draft.payload)}`;
    },
  },
];

/** Mutations whose output is not JSON: applied to the text. */
function breakText(text: string, random: () => number): { text: string; mutation: string } {
  const cut = Math.floor(random() * text.length);
  return random() < 0.5
    ? { text: text.slice(0, cut), mutation: `cut at ${cut}` }
    : { text: `${text.slice(0, cut)}\u0000}${text.slice(cut)}`, mutation: `junk at ${cut}` };
}

/**
 * `count` malformed deliveries of `events` from `seed`, made one at a time (a huge one is not held
 * while the next is made). Event names cycle, so every event gets its share.
 */
export function* malformedDeliveries(options: {
  seed: number;
  count: number;
  events: readonly WebhookEventName[];
  /** The sizes a huge string is picked from (default HUGE_STRING_BYTES); the same seed makes the same choices. */
  hugeSizes?: readonly number[];
}): Generator<MalformedDelivery> {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const examples = new Map(options.events.map((event) => [event, everyExample(event)]));
  for (let i = 0; i < options.count; i++) {
    const event = options.events[i % options.events.length]!;
    const draft: Draft = {
      payload: structuredClone(pick(examples.get(event)!)),
      splice: null,
      hugeSizes: options.hugeSizes ?? HUGE_STRING_BYTES,
      hugeBytes: 0,
    };
    const mutations: string[] = [];
    const times = 1 + Math.floor(random() * 3);
    for (let m = 0; m < times; m++) mutations.push(pick(MUTATIONS).apply(draft, random, pick));
    let body = JSON.stringify(draft.payload) ?? "null";
    if (draft.splice !== null) body = body.replace(JSON.stringify(SPLICE), draft.splice);
    if (random() < 0.05) {
      const broken = breakText(body, random);
      body = broken.text;
      mutations.push(broken.mutation);
    }
    yield { event, body, mutations, hugeStringBytes: draft.hugeBytes };
  }
}

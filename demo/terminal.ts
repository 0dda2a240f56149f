/**
 * How the demo looks in a terminal: step headers, one entry per GitHub write with the comment body
 * rendered compactly, and the recap. Pure functions of plain data; colours only when asked for.
 */
import type { ReplicaActivity } from "./stage.js";

export interface Style {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  code(text: string): string;
  link(text: string): string;
  ok(text: string): string;
  fail(text: string): string;
  accent(text: string): string;
  heading(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export function createStyle(color: boolean): Style {
  const plain = (text: string) => text;
  if (!color) {
    return { enabled: false, bold: plain, dim: plain, code: plain, link: plain, ok: plain, fail: plain, accent: plain, heading: plain };
  }
  return {
    enabled: true,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    code: sgr(36, 39),
    link: sgr(4, 24),
    ok: sgr(32, 39),
    fail: sgr(31, 39),
    accent: sgr(35, 39),
    heading: (text) => sgr(1, 22)(sgr(34, 39)(text)),
  };
}

/** Whether to colour: a terminal, and NO_COLOR unset or empty (https://no-color.org). */
export function shouldColor(isTty: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTty === true && !env.NO_COLOR;
}

// ---------------------------------------------------------------------------------------------
// Widths and wrapping

// eslint-disable-next-line no-control-regex -- SGR escapes start with ESC; they take no columns.
const ANSI = /\u001b\[[0-9;]*m/g;

/** Columns a string takes: escapes take none, emoji and wide characters two, joiners and selectors none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(ANSI, "")) {
    const code = char.codePointAt(0)!;
    if (code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0x300 && code <= 0x36f)) continue;
    const wide =
      (code >= 0x1f300 && code <= 0x1faff) ||
      (code >= 0x2600 && code <= 0x27bf && EMOJI_PRESENTATION.has(code)) ||
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xff00 && code <= 0xff60);
    width += wide ? 2 : 1;
  }
  return width;
}

/** Symbols in the Miscellaneous Symbols and Dingbats blocks that terminals draw two columns wide. */
const EMOJI_PRESENTATION = new Set([
  0x23f3, 0x231b, 0x2614, 0x2615, 0x26a1, 0x26d4, 0x2705, 0x270a, 0x270b, 0x2728, 0x274c, 0x274e, 0x2753, 0x2754, 0x2755, 0x2757, 0x2795,
  0x2796, 0x2797, 0x27b0, 0x27bf,
]);

/** A run of text in one style (the unit wrapping keeps together per word). */
export interface Segment {
  text: string;
  style?: keyof Omit<Style, "enabled">;
}

/**
 * Word-wraps styled segments to `width` columns. Styles are opened and closed within each line, so
 * a line break never leaves a colour open; words longer than a line are cut.
 */
export function wrapSegments(segments: readonly Segment[], width: number, style: Style): string[] {
  const limit = Math.max(10, width);
  type Key = Segment["style"];
  const words: Array<{ text: string; style: Key; glued: boolean }> = [];
  let pendingSpace = false;
  for (const segment of segments) {
    // Without colours a code span keeps its backticks, around the whole span rather than each word.
    const text = segment.style === "code" && !style.enabled ? `\`${segment.text}\`` : segment.text;
    for (const part of text.split(/(\s+)/)) {
      if (part === "") continue;
      if (/^\s+$/.test(part)) {
        pendingSpace = true;
        continue;
      }
      words.push({ text: part, style: segment.style, glued: !pendingSpace && words.length > 0 });
      pendingSpace = false;
    }
  }

  // A line is a list of runs in one style each, painted when the line is done.
  const lines: Array<Array<{ text: string; style: Key }>> = [];
  let line: Array<{ text: string; style: Key }> = [];
  let used = 0;
  const append = (text: string, key: Key) => {
    const last = line.at(-1);
    if (last && last.style === key) last.text += text;
    else line.push({ text, style: key });
    used += displayWidth(text);
  };
  const breakLine = () => {
    lines.push(line);
    line = [];
    used = 0;
  };
  for (const word of words) {
    let rest = word.text;
    if (used > 0 && !word.glued) {
      if (used + 1 + displayWidth(rest) > limit) breakLine();
      else append(" ", line.at(-1)?.style === word.style ? word.style : undefined);
    }
    // A word wider than the line is cut into pieces.
    while (used + displayWidth(rest) > limit) {
      let cut = 0;
      let taken = 0;
      for (const char of rest) {
        const w = displayWidth(char);
        if (used + taken + w > limit) break;
        taken += w;
        cut += char.length;
      }
      if (cut === 0 && used > 0) {
        breakLine();
        continue;
      }
      if (cut === 0) cut = rest.length;
      append(rest.slice(0, cut), word.style);
      rest = rest.slice(cut);
      breakLine();
    }
    if (rest.length > 0) append(rest, word.style);
  }
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines.map((runs) => runs.map((run) => (run.style ? style[run.style](run.text) : run.text)).join(""));
}

// ---------------------------------------------------------------------------------------------
// Comment bodies: GitHub Markdown to a few readable terminal lines

/** One visible line of a comment: its kind decides the prefix and emphasis. */
export interface BodyLine {
  kind: "heading" | "text" | "item" | "collapsed" | "note";
  segments: Segment[];
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#96;": "`",
  "&nbsp;": " ",
};
const decodeEntities = (text: string) => text.replace(/&(?:amp|lt|gt|quot|nbsp|#39|#96);/g, (entity) => ENTITIES[entity] ?? entity);
const unescapeMarkdown = (text: string) => text.replace(/\\([\\`*_{}[\]()#+\-.!<>|~@])/g, "$1");

/** Inline Markdown (bold, code spans, links, `<sub>`, other tags) to styled segments. */
function inlineSegments(text: string, base?: Segment["style"]): Segment[] {
  const segments: Segment[] = [];
  const plain = (value: string, style = base) => {
    const cleaned = decodeEntities(unescapeMarkdown(value.replace(/<\/?(?:sub|sup|b|strong|em|i|code|br\s*\/?)>/gi, "")));
    if (cleaned !== "") segments.push({ text: cleaned, ...(style ? { style } : {}) });
  };
  // Code spans first (their content is literal), then links and bold in the rest.
  const pattern = /(`+)([\s\S]*?[^`])\1(?!`)|\[([^\]]*)\]\(([^)\s]*)\)|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    plain(text.slice(last, match.index));
    if (match[1] !== undefined) segments.push({ text: decodeEntities(match[2]!.trim()), style: "code" });
    else if (match[3] !== undefined) plain(match[3], "link");
    else plain(match[5]!, "bold");
    last = match.index + match[0].length;
  }
  plain(text.slice(last));
  return segments;
}

/** Marks a folded `<details>` line between the two passes (a private-use character no comment holds). */
const FOLD = "\ue000";
const FOLDED_LINE = new RegExp(`^${FOLD}([\\s\\S]*)${FOLD}(\\d+)$`);

/**
 * A comment body as the terminal shows it: hidden markers removed, each `<details>` block folded
 * to one line naming its summary and size, headings and list items marked, blank lines dropped.
 */
export function compactBody(body: string): BodyLine[] {
  const withoutMarkers = body.replace(/<!--[\s\S]*?-->/g, "");
  const folded = withoutMarkers.replace(/<details>([\s\S]*?)<\/details>/gi, (_block, inner: string) => {
    const summary = /<summary>([\s\S]*?)<\/summary>/i.exec(inner)?.[1]?.trim() ?? "Details";
    const hidden = inner
      .replace(/<summary>[\s\S]*?<\/summary>/i, "")
      .split("\n")
      .filter((line) => line.trim() !== "" && !/^```/.test(line.trim())).length;
    return `\n${FOLD}${summary}${FOLD}${hidden}\n`;
  });
  const lines: BodyLine[] = [];
  let inFence = false;
  for (const raw of folded.split("\n")) {
    const line = raw.trimEnd();
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (line.trim() === "") continue;
    if (inFence) {
      lines.push({ kind: "text", segments: [{ text: line.trim(), style: "code" }] });
      continue;
    }
    const collapsed = FOLDED_LINE.exec(line.trim());
    if (collapsed) {
      const count = Number(collapsed[2]);
      lines.push({
        kind: "collapsed",
        segments: [...inlineSegments(collapsed[1]!), { text: ` (${count} ${count === 1 ? "line" : "lines"} folded)`, style: "dim" }],
      });
      continue;
    }
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      lines.push({ kind: "heading", segments: inlineSegments(heading[1]!, "bold") });
      continue;
    }
    const item = /^\s*[-*+]\s+(.*)$/.exec(line);
    if (item) {
      lines.push({ kind: "item", segments: inlineSegments(item[1]!) });
      continue;
    }
    const note = /^\s*<sub>([\s\S]*)<\/sub>\s*$/i.exec(line);
    if (note) {
      lines.push({ kind: "note", segments: inlineSegments(note[1]!, "dim") });
      continue;
    }
    lines.push({ kind: "text", segments: inlineSegments(line.trim()) });
  }
  return lines;
}

/** The text a reader sees, one line per body line: two bodies with the same visible text look the same. */
export function visibleText(body: string): string {
  return compactBody(body)
    .map((line) => `${line.kind}:${line.segments.map((segment) => segment.text).join("")}`)
    .join("\n");
}

/** The body's lines wrapped to `width` columns, each starting with `prefix`. */
export function renderBody(body: string, options: { width: number; prefix: string; style: Style }): string[] {
  const { style, prefix } = options;
  const room = options.width - displayWidth(prefix);
  const out: string[] = [];
  for (const line of compactBody(body)) {
    const lead = line.kind === "item" ? "• " : line.kind === "collapsed" ? "▸ " : "";
    const wrapped = wrapSegments(line.segments, room - lead.length, style);
    wrapped.forEach((text, index) => out.push(`${prefix}${index === 0 ? lead : " ".repeat(lead.length)}${text}`));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writes, steps, recap

const REACTION_EMOJI: Record<string, string> = {
  "+1": "👍",
  "-1": "👎",
  laugh: "😄",
  confused: "😕",
  heart: "❤️",
  hooray: "🎉",
  rocket: "🚀",
  eyes: "👀",
};

/** A write of the bot, with the names a reader needs already looked up. */
export type WriteView =
  | {
      kind: "comment";
      action: "created" | "edited" | "deleted";
      commentId: number;
      thread: string;
      author: string;
      body: string;
      /** An edit that changed only what a reader does not see (the hidden marker). */
      sameVisibleText?: boolean;
    }
  | { kind: "reaction"; content: string; author: string; target: string };

const INDENT = "  ";
const BODY_PREFIX = "     │ ";

export function renderWrite(view: WriteView, options: { width: number; style: Style }): string {
  const { style } = options;
  if (view.kind === "reaction") {
    const emoji = REACTION_EMOJI[view.content] ?? view.content;
    return `${INDENT}${emoji} ${style.bold(view.author)} reacted ${style.accent(view.content)} on ${view.target}\n`;
  }
  const icon = view.action === "created" ? "💬" : view.action === "edited" ? "✏️ " : "🗑️ ";
  const head = `${INDENT}${icon} ${style.bold(view.author)} ${view.action} comment ${view.commentId} on ${view.thread}`;
  if (view.action === "deleted") return `${head}\n`;
  if (view.sameVisibleText) return `${head}${style.dim(" (no change a reader sees)")}\n`;
  const body = renderBody(view.body, { width: options.width, prefix: style.dim(BODY_PREFIX), style });
  return [head, ...body].join("\n") + "\n";
}

/** A heading across the terminal (at most 100 columns): `━━ title ━━━…`. */
function renderSection(title: string, options: { width: number; style: Style }): string {
  const label = ` ${title} `;
  const rule = "━".repeat(Math.max(2, Math.min(options.width, 100) - displayWidth(label) - 2));
  return `\n${options.style.heading(`━━${label}${rule}`)}\n`;
}

export function renderStepHeader(input: { index: number; total: number; title: string }, options: { width: number; style: Style }): string {
  return renderSection(`Step ${input.index}/${input.total} · ${input.title}`, options);
}

/** What a person or CI did, and how the App's webhook endpoint answered. */
/** `via`: the replica the load balancer gave the delivery to (demo with replicas). */
export function renderDelivery(
  input: { actor: string; action: string; text?: string; event: string; status: number; via?: string },
  options: { width: number; style: Style },
): string {
  const { style } = options;
  const lines = [`${INDENT}${style.accent("▶")} ${style.bold(input.actor)} ${input.action}`];
  if (input.text)
    lines.push(...wrapSegments([{ text: `“${input.text}”` }], options.width - 6, style).map((line) => `${INDENT}    ${line}`));
  const route = input.via ? `the load balancer → ${input.via}` : "the App's endpoint";
  if (input.status === 0) {
    // GitHub's status_code 0: it could not connect.
    lines.push(style.dim(`${INDENT}    signed ${input.event} webhook → ${route} → `) + style.fail("no answer (nothing listens there)"));
  } else {
    const answer = input.status >= 200 && input.status < 300 ? style.ok(String(input.status)) : style.fail(String(input.status));
    lines.push(style.dim(`${INDENT}    signed ${input.event} webhook → ${route} → HTTP `) + answer);
  }
  return lines.join("\n") + "\n";
}

export function renderNote(text: string, options: { width: number; style: Style }): string {
  return (
    wrapSegments(inlineSegments(text), options.width - 6, options.style)
      .map((line, index) => `${INDENT}${index === 0 ? "⤷ " : "  "}${line}`)
      .join("\n") + "\n"
  );
}

/** Which replicas did a step's work (demo with replicas), under its check. */
export function renderHandledBy(text: string, options: { width: number; style: Style }): string {
  return (
    wrapSegments([{ text }], options.width - 6, options.style)
      .map((line) => `${INDENT}  ${options.style.dim(line)}`)
      .join("\n") + "\n"
  );
}

/** A step's effect, confirmed: `text` may hold inline Markdown (code spans). */
export function renderCheck(text: string, options: { width: number; style: Style }): string {
  const lines = wrapSegments(inlineSegments(text), options.width - 6, options.style);
  return lines.map((line, index) => `${INDENT}${index === 0 ? `${options.style.ok("✔")} ` : "  "}${line}`).join("\n") + "\n";
}

export interface Recap {
  runsCreated: number;
  runsResumed: number;
  /** Run id → how many times it was resumed. */
  resumedRuns: Array<{ runId: number; times: number }>;
  serviceRequests: number;
  byEndpoint: Record<string, number>;
  rateLimited: number;
  githubWrites: { comments: number; edits: number; reactions: number };
  elapsedMs: number;
  timeScale: number;
  /** With replicas: what each one received and did. */
  replicas?: ReplicaActivity[];
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function renderRecap(recap: Recap, options: { width: number; style: Style }): string {
  const { style } = options;
  const row = (label: string, value: string, detail = "") =>
    `${INDENT}${label.padEnd(18)}${style.bold(value)}${detail ? style.dim(`  ${detail}`) : ""}`;
  const endpoints = Object.entries(recap.byEndpoint)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name} ${count}`)
    .join(" · ");
  const resumed = recap.resumedRuns.map((r) => `run #${r.runId} ×${r.times}`).join(", ");
  const writes = recap.githubWrites;
  const total = writes.comments + writes.edits + writes.reactions;
  const zero429 = recap.rateLimited === 0 ? style.ok(String(recap.rateLimited)) : style.fail(String(recap.rateLimited));
  return [
    renderSection("Recap", options).trimEnd(),
    row("Runs created", String(recap.runsCreated)),
    row("Runs resumed", String(recap.runsResumed), resumed),
    row("Service requests", String(recap.serviceRequests), endpoints),
    `${INDENT}${"429s".padEnd(18)}${style.bold(zero429)}`,
    row("GitHub writes", String(total), `${writes.comments} comments · ${writes.edits} edits · ${writes.reactions} reactions`),
    ...(recap.replicas
      ? [
          row("Replicas", String(recap.replicas.length), "agent-run app processes on one Redis, behind a round-robin load balancer"),
          ...recap.replicas.flatMap((r) => {
            const detail =
              `received ${counted(r.received, "webhook", "webhooks")} · took ${counted(r.accepted, "delivery", "deliveries")} · ` +
              `sent ${counted(r.started, "run", "runs")} · posted ${counted(r.results, "result", "results")}`;
            const lines = wrapSegments([{ text: detail }], options.width - 20, style);
            return lines.map((line, index) => `${INDENT}  ${(index === 0 ? r.label : "").padEnd(16)}${style.dim(line)}`);
          }),
        ]
      : []),
    row("Elapsed", `${(recap.elapsedMs / 1000).toFixed(1)} s`, `emulated time ×${Math.round(1 / recap.timeScale)}`),
    "",
  ].join("\n");
}

/**
 * What a command may touch: its streams, environment and signals, passed in so that the whole CLI
 * runs in-process in tests exactly as it does from the terminal.
 */
import { createRedactor, type Redactor } from "../core/redact.js";
import { escapeForTerminal, escapeJsonForTerminal } from "../core/terminal-text.js";

interface CliWritable {
  write(chunk: string): unknown;
}

export type ShutdownSignal = "SIGINT" | "SIGTERM";

export interface CliIo {
  stdout: CliWritable;
  stderr: CliWritable;
  /** Read only for `--prompt -`. */
  stdin: AsyncIterable<string | Uint8Array>;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal: decides the live progress line. */
  isTTY: boolean;
  /** Relative `--image` paths resolve against it. Default: the process's working directory. */
  cwd?: string;
  /** Subscribes to SIGINT/SIGTERM; returns the unsubscribe. Default: the process's signals. */
  onSignal?: (handler: (signal: ShutdownSignal) => void) => () => void;
  /** Settles when stdout's reader went away (EPIPE: `agent-run logs 1 | head -1`). Default: never. */
  stdoutClosed?: Promise<void>;
}

const MIN_SECRET_LENGTH = 8;

/** What the CLI never prints: its own token by value, and what core/redact.ts finds (GitHub tokens, keys, credentials in URLs…). */
const redactorFor = (secrets: Iterable<string>) =>
  createRedactor({ secrets: [...secrets].map((value) => ({ value, label: "API token" })) });

/** The state one invocation shares between the program and its commands. */
export class CliContext {
  /** Set by a command that finished without throwing (e.g. 1 for a run that ended failed). */
  exitCode = 0;
  private readonly secrets = new Set<string>();
  private redactor: Redactor = redactorFor([]);
  /** Set once stdout's reader went away: the command ends quietly, so nothing more is written anywhere. */
  private quiet = false;

  /** Private: commands write through the methods below, never to the streams themselves. */
  constructor(private readonly io: CliIo) {}

  get env(): CliIo["env"] {
    return this.io.env;
  }

  get stdin(): CliIo["stdin"] {
    return this.io.stdin;
  }

  /** Whether stdout is a terminal: decides the live progress line. */
  get isTTY(): boolean {
    return this.io.isTTY;
  }

  /**
   * Remembers a value (the API token) that must never reach stdout or stderr. The CLI never writes
   * it on purpose; this catches a server or proxy echoing it. Very short values are skipped: masking
   * every "abc" in a summary would garble output without protecting a real token.
   */
  addSecret(value: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.secrets.has(value)) return;
    this.secrets.add(value);
    this.redactor = redactorFor(this.secrets);
  }

  private redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** Stdout's reader went away: every later write, on either stream, is dropped (see `runCli`). */
  silence(): void {
    this.quiet = true;
  }

  private write(stream: "stdout" | "stderr", text: string): void {
    if (!this.quiet) this.io[stream].write(text);
  }

  /**
   * The CLI's one door out: stdout and stderr are written only here (an architecture test keeps it
   * so). Everything passing it is redacted (tokens) and escaped for the terminal (core/terminal-text.ts):
   * a run's summary, a log entry or a service error body may carry ESC, C1 or bidi controls.
   * This one: text for stdout (the caller ends lines).
   */
  out(text: string): void {
    this.write("stdout", escapeForTerminal(this.redact(text)));
  }

  /**
   * Text for stdout that may show a secret-looking value on purpose (the emulator's own local
   * token, printed so it can be pasted); still escaped for the terminal.
   */
  outUnredacted(text: string): void {
    this.write("stdout", escapeForTerminal(text));
  }

  /** Machine output: one JSON document, or one JSON line per item; parses back to exactly `value` (less redactions). */
  json(value: unknown, pretty = true): void {
    this.write("stdout", `${escapeJsonForTerminal(this.redact(JSON.stringify(value, null, pretty ? 2 : undefined)))}\n`);
  }

  /** A message for the user on stderr, prefixed like every CLI message. */
  error(message: string): void {
    this.errText(`agent-run: ${message}\n`);
  }

  /** Text for stderr as is (commander's help and errors, a file's problems one per line). */
  errText(text: string): void {
    this.write("stderr", escapeForTerminal(this.redact(text)));
  }

  /**
   * The live progress line on a terminal: rewritten in place (carriage return, then erase to the
   * end of the line), the one terminal control the CLI sends on purpose. Empty text clears it.
   */
  rewriteLine(text: string): void {
    this.write("stdout", `\r${escapeForTerminal(this.redact(text))}\x1b[K`);
  }

  get cwd(): string {
    return this.io.cwd ?? process.cwd();
  }

  /** The first SIGINT or SIGTERM from now on: a server command runs until then. */
  untilShutdownSignal(): Promise<ShutdownSignal> {
    return new Promise((resolve) => {
      const unsubscribe = this.onSignal((received) => {
        unsubscribe();
        resolve(received);
      });
    });
  }

  onSignal(handler: (signal: ShutdownSignal) => void): () => void {
    if (this.io.onSignal) return this.io.onSignal(handler);
    const listener = (signal: NodeJS.Signals) => handler(signal as ShutdownSignal);
    process.once("SIGINT", listener);
    process.once("SIGTERM", listener);
    return () => {
      process.off("SIGINT", listener);
      process.off("SIGTERM", listener);
    };
  }
}

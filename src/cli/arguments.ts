/** Parsers for commander arguments and options: a bad value becomes a usage error naming it. */
import { InvalidArgumentError } from "commander";

export function parseRunId(value: string): number {
  return parsePositiveInteger(value);
}

export function parsePositiveInteger(value: string): number {
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError("it must be a positive integer.");
  }
  return n;
}

/** A TCP port: 0 asks the system for a free one. */
export function parsePort(value: string): number {
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || n > 65_535)
    throw new InvalidArgumentError("it must be a port number between 0 and 65535 (0 = any free port).");
  return n;
}

export function parsePositiveNumber(value: string): number {
  const n = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("it must be a positive number.");
  return n;
}

/** Collects a repeatable option into a list. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

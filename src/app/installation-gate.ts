/**
 * ALLOWED_OWNERS at the door: a delivery from an installation of any other account is dropped
 * before it is stored or queued, so it reaches neither the engine nor the service's budget. GitHub
 * still gets its 2xx (the delivery is not its fault, and a failed one would be redelivered by the
 * App's own recovery). Each such installation is logged once a day, not once per delivery: a busy
 * stranger's installation would otherwise fill the logs.
 */
import { judgeInstallationOwner, type AllowedOwners } from "../core/allowed-owners.js";

/** Installations remembered for the once-a-day log line; the oldest is forgotten first. */
const MAX_REMEMBERED = 1_000;
const LOG_EVERY_MS = 24 * 60 * 60_000;

export interface InstallationGate {
  /** Whether the delivery's installation belongs to an allowed account (every one when ALLOWED_OWNERS is unset). */
  admits(delivery: { id: string; name: string; payload: unknown }): boolean;
}

export function createInstallationGate(
  allowed: AllowedOwners,
  log: { warn(fields: object, message: string): void },
  now: () => number = Date.now,
): InstallationGate {
  const loggedAt = new Map<string, number>();
  return {
    admits(delivery) {
      const verdict = judgeInstallationOwner(allowed, delivery.payload);
      if (verdict.admitted) return true;
      const key = String(verdict.installationId ?? verdict.owner ?? "unnamed");
      const last = loggedAt.get(key);
      if (last === undefined || now() - last >= LOG_EVERY_MS) {
        loggedAt.delete(key);
        if (loggedAt.size >= MAX_REMEMBERED) loggedAt.delete(loggedAt.keys().next().value!);
        loggedAt.set(key, now());
        log.warn(
          { installation: verdict.installationId, owner: verdict.owner, delivery: delivery.id, event: delivery.name },
          "a delivery from an installation whose account is not in ALLOWED_OWNERS started nothing; uninstall the App there, or add the account to ALLOWED_OWNERS (logged once a day per installation)",
        );
      }
      return false;
    },
  };
}

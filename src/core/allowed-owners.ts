/**
 * Who may install the App (ALLOWED_OWNERS): a list of GitHub accounts and organizations. An App made
 * public by mistake can be installed by anyone, and each installation's comments would then start
 * runs on the operator's service budget; with the list set, a delivery from any other account starts
 * nothing. The owner is read from the signed payload: an installation only ever receives events of
 * its own account's repositories, so `repository.owner` is the installation's account.
 */

/** GitHub logins: letters, digits and hyphens; `_` appears in Enterprise Managed Users' logins (`name_shortcode`). */
const LOGIN = /^[a-z0-9][a-z0-9_-]{0,99}$/i;

/** Lower-cased logins; null means every account may install. */
export type AllowedOwners = ReadonlySet<string> | null;

/** ALLOWED_OWNERS (comma-separated, any case, blanks ignored), and every entry that is no login. */
export function parseAllowedOwners(text: string | undefined): { owners: AllowedOwners; invalid: string[] } {
  if (text === undefined) return { owners: null, invalid: [] };
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const invalid = entries.filter((entry) => !LOGIN.test(entry));
  return { owners: new Set(entries.filter((entry) => LOGIN.test(entry)).map((entry) => entry.toLowerCase())), invalid };
}

/** Whether an account (its login, any case) may use the App: every account when no list is set. */
export function ownerAllowed(allowed: AllowedOwners, owner: string): boolean {
  return allowed === null || allowed.has(owner.toLowerCase());
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function stringAt(value: unknown, ...path: string[]): string | null {
  const found = path.reduce<unknown>((at, key) => field(at, key), value);
  return typeof found === "string" && found !== "" ? found : null;
}

/** The account whose installation sent a payload: the installation's account when the event names it, else the repository's owner. */
export function installationOwnerOf(payload: unknown): string | null {
  return stringAt(payload, "installation", "account", "login") ?? stringAt(payload, "repository", "owner", "login");
}

export type OwnerVerdict =
  | { admitted: true }
  /** `owner` null: the payload names no account, and with a list set nothing unnamed is admitted. */
  | { admitted: false; owner: string | null; installationId: number | null };

/** Whether a delivery's installation belongs to an allowed account; every delivery is admitted when no list is set. */
export function judgeInstallationOwner(allowed: AllowedOwners, payload: unknown): OwnerVerdict {
  if (allowed === null) return { admitted: true };
  const owner = installationOwnerOf(payload);
  if (owner !== null && ownerAllowed(allowed, owner)) return { admitted: true };
  const id = field(field(payload, "installation"), "id");
  return { admitted: false, owner, installationId: typeof id === "number" ? id : null };
}

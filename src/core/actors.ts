/**
 * Who wrote something, as every decision needs to know it: the bridge itself, a bot the Action's
 * `allowed-bots` lets in, another bot, or a person. Trigger detection, permission decisions, marker
 * trust and prompts in the App and the Action all ask here, so the bot test exists once. GitHub
 * logins compare case-insensitively; an App's login ends in `[bot]`, and its `type` is `Bot`.
 */

import type { MarkerSigner } from "./markers/signature.js";

/** Bots allowed to trigger runs: none by default, a list (`name` and `name[bot]` both match), or every bot (`*`). */
export interface AllowedBots {
  all: boolean;
  logins: readonly string[];
}

/** Who the bridge is in a thread. */
export interface BridgeSelf {
  /** The App's slug: `<slug>[bot]` is its login, `@<slug>` a mention of it. */
  appSlug?: string;
  /** Logins whose comments are the bridge's own (e.g. `my-app[bot]`, `github-actions[bot]`). */
  botLogins: readonly string[];
  /** Bots whose comments and reviews count as a person's (the Action's `allowed-bots`). Default: none. */
  allowedBots?: AllowedBots;
  /** The Action's marker key: its login is shared by every workflow, so only signed markers are its own (markers/signature.ts). */
  markerSigner?: MarkerSigner | undefined;
  /**
   * People who may start a run with an explicit prompt without write access (the Action's
   * `allowed-non-write-users`): a list, or everyone (`*`). Default: none.
   */
  allowedNonWriteUsers?: AllowedUsers;
}

/** People let in without write access: none by default, a list of logins, or everyone (`*`). */
export interface AllowedUsers {
  all: boolean;
  logins: readonly string[];
}

/** Whether `login` may start a run with an explicit prompt whatever its repository role. */
export function isAllowedNonWriteUser(login: string, allowed: AllowedUsers | undefined): boolean {
  if (!allowed) return false;
  return allowed.all || allowed.logins.some((entry) => entry.toLowerCase() === login.toLowerCase());
}

export type ActorKind = "self" | "allowed_bot" | "bot" | "person";

/** A login, or an author as GitHub describes it (`type` is `User`, `Bot` or `Organization`). */
export type ActorLike = string | { login: string; type?: string | null };

const loginOf = (actor: ActorLike) => (typeof actor === "string" ? actor : actor.login);
const bareLogin = (login: string) => login.toLowerCase().replace(/\[bot\]$/, "");

/** A bot account (an App or another integration), whoever it is: the one bot test. */
export function isBotAccount(actor: ActorLike): boolean {
  return (typeof actor !== "string" && actor.type === "Bot") || loginOf(actor).toLowerCase().endsWith("[bot]");
}

/** One of the bridge's own logins. */
function isOwnLogin(login: string, self: Pick<BridgeSelf, "appSlug" | "botLogins">): boolean {
  const lower = login.toLowerCase();
  if (self.appSlug && lower === `${self.appSlug.toLowerCase()}[bot]`) return true;
  return self.botLogins.some((own) => own.toLowerCase() === lower);
}

function isAllowListed(login: string, allowed: AllowedBots | undefined): boolean {
  if (!allowed) return false;
  return allowed.all || allowed.logins.some((entry) => bareLogin(entry) === bareLogin(login));
}

/**
 * The bridge's own logins first (never let in by an allow-list: that is what stops loops), then
 * bots, allowed or not, then people. A login on the allow-list that is not a bot stays a person.
 */
export function classifyActor(actor: ActorLike, self: BridgeSelf): ActorKind {
  const login = loginOf(actor);
  if (isOwnLogin(login, self)) return "self";
  if (!isBotAccount(actor)) return "person";
  return isAllowListed(login, self.allowedBots) ? "allowed_bot" : "bot";
}

/** Whether an actor's words count as a request: people's, and allowed bots'. */
export const actsAsPerson = (kind: ActorKind): boolean => kind === "person" || kind === "allowed_bot";

/** Whose words never start a run: the bridge's own, and bots the allow-list does not name. */
export function isBotActor(actor: ActorLike | null | undefined, self: BridgeSelf): boolean {
  return !!actor && !actsAsPerson(classifyActor(actor, self));
}

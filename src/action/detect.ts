/**
 * The App's trigger detection, plus the one thing only the Action has: `allowed-bots`. Core treats
 * every bot as "not a person, never a trigger" (which also stops loops); a workflow may list bots
 * whose comments and reviews should start runs anyway (e.g. a dependency bot asking for a fix).
 * The bridge's own logins stay refused whatever the list says.
 */
import type { Actor, BridgeEvent } from "../core/events.js";
import { detectTrigger, type BridgeSelf, type DetectOptions, type RunTrigger, type TriggerDetection } from "../core/plan.js";
import type { RepoConfig } from "../config/schema.js";
import { isAllowedBot, type AllowedBots } from "./inputs.js";

const isOwnLogin = (login: string, self: BridgeSelf) => self.botLogins.some((bot) => bot.toLowerCase() === login.toLowerCase());

/** The bot accounts an event's trigger text could come from (author and sender). */
function botActorsOf(event: BridgeEvent): Actor[] {
  const actors: Array<Actor | null | undefined> = [event.sender];
  if (event.kind === "issue_comment" || event.kind === "pull_request_review_comment") actors.push(event.comment.author);
  if (event.kind === "pull_request_review") actors.push(event.review.author);
  return actors.filter((actor): actor is Actor => !!actor && (actor.type === "Bot" || actor.login.toLowerCase().endsWith("[bot]")));
}

/** The same actor as a person would look to core's bot test, with a login that cannot be anyone's (`[` is not allowed in logins). */
const asPerson = (actor: Actor): Actor => ({ login: actor.login.replace(/\[bot\]$/i, "[allowed-bot]"), type: "User" });

function withActors(event: BridgeEvent, map: (actor: Actor) => Actor): BridgeEvent {
  const sender = event.sender ? map(event.sender) : event.sender;
  switch (event.kind) {
    case "issue_comment":
      return { ...event, sender: sender!, comment: { ...event.comment, author: map(event.comment.author) } };
    case "pull_request_review_comment":
      return { ...event, sender: sender!, comment: { ...event.comment, author: map(event.comment.author) } };
    case "pull_request_review":
      return { ...event, sender: sender!, review: { ...event.review, author: event.review.author ? map(event.review.author) : null } };
    case "other":
      return { ...event, sender };
    default:
      return { ...event, sender: sender! };
  }
}

/** The trigger detected on the stand-in event, pointed back at the real event and its real bot actor. */
function restore(trigger: RunTrigger, original: BridgeEvent): RunTrigger {
  switch (trigger.flow) {
    case "comment":
      if (original.kind !== "issue_comment") return trigger;
      return { ...trigger, event: original, actor: original.comment.author, comment: original.comment };
    case "review":
      if (original.kind === "pull_request_review") {
        return { ...trigger, event: original, actor: original.review.author ?? original.sender, review: original.review };
      }
      if (original.kind === "pull_request_review_comment") {
        return { ...trigger, event: original, actor: original.comment.author, reviewComment: original.comment };
      }
      return trigger;
    default:
      return trigger;
  }
}

/**
 * `detectTrigger`, except that a comment or review by a bot listed in `allowed-bots` is judged as
 * a person's would be. The returned trigger names the bot as its actor.
 */
export function detectActionTrigger(
  event: BridgeEvent,
  config: RepoConfig,
  self: BridgeSelf,
  allowedBots: AllowedBots,
  options: DetectOptions = {},
): TriggerDetection {
  const detection = detectTrigger(event, config, self, options);
  if (detection.kind !== "ignore" || detection.code !== "bot_sender") return detection;
  const bots = botActorsOf(event);
  if (bots.length === 0 || bots.some((bot) => isOwnLogin(bot.login, self) || !isAllowedBot(bot.login, allowedBots))) return detection;
  const retried = detectTrigger(withActors(event, (actor) => (bots.includes(actor) ? asPerson(actor) : actor)), config, self, options);
  return retried.kind === "trigger" ? { kind: "trigger", trigger: restore(retried.trigger, event) } : retried;
}

/** Whether the actor of a trigger is a bot let in by `allowed-bots` (the permission check is then the list itself). */
export function isAllowedBotActor(login: string, self: BridgeSelf, allowedBots: AllowedBots): boolean {
  return login.toLowerCase().endsWith("[bot]") && !isOwnLogin(login, self) && isAllowedBot(login, allowedBots);
}

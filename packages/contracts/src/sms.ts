import { z } from "zod";
import { IsoDateTime } from "./common";

/**
 * Vote notifications by SMS (docs/product.md "Notifications"): one message
 * per batch of new votes, never naming a voter, at most `maxPerDay` a day and
 * never in quiet hours, both in the school's time zone.
 */
export const VOTE_NOTICE = {
  maxPerDay: 3,
  /** Local hour (24h) at which quiet hours begin; nothing is sent from then... */
  quietHoursStart: 21,
  /** ...until this local hour. */
  quietHoursEnd: 9,
} as const;

/** The app page a vote notice links to, below PUBLIC_URL. */
export const VOTE_NOTICE_PATH = "/home";

/** The notice text: counts the votes, links home, names nobody. */
export function voteNoticeText(count: number, homeUrl: string): string {
  const votes = count === 1 ? "1 new vote" : `${count} new votes`;
  return `You got ${votes} on Quad! See who voted for you: ${homeUrl} Reply STOP to opt out.`;
}

/** Answers to inbound keywords (docs/product.md: STOP and HELP). Each names the way out. */
export const SMS_REPLIES = {
  help: "Quad: texts about votes you receive and your sign-in codes. Msg frequency varies. Msg&data rates may apply. Reply STOP to opt out.",
  optedOut: "Quad: You're unsubscribed and will get no more vote notifications. Reply START to resubscribe.",
  optedIn:
    "Quad: You're resubscribed to vote notifications. Msg&data rates may apply. Reply STOP to opt out, HELP for help.",
} as const;

/**
 * The settings control for vote notifications by SMS.
 * `enabled` is what will happen: texts go out only when the latest consent
 * is granted and the number has not replied STOP since its last START.
 * `optedOutBySms`: the number replied STOP; only texting START turns texts
 * back on (the carrier blocks every message until then, whatever the app says).
 */
export const SmsSettings = z.object({
  enabled: z.boolean(),
  optedOutBySms: z.boolean(),
  updatedAt: IsoDateTime.nullable(),
});
export type SmsSettings = z.infer<typeof SmsSettings>;

export const SetSmsInput = z.object({ enabled: z.boolean({ error: "enabled must be true or false" }) }).strict();
export type SetSmsInput = z.infer<typeof SetSmsInput>;

import { INBOX_NEW_VOTES_MAX } from "@quad/contracts";

/** The new-votes count as the badge says it: "3 new", "99+ new" at the cap. */
export const newVotesLabel = (count: number) =>
  `${count >= INBOX_NEW_VOTES_MAX ? `${INBOX_NEW_VOTES_MAX}+` : count} new`;

/** The empty inbox: how votes arrive and what to do meanwhile. */
export const EMPTY_INBOX_HOW =
  "Votes arrive when classmates pick you in their rounds. Each one lands here as a card you can unlock.";
/**
 * How votes arrive: each at its own random moment within the hour after it was cast, so the moment
 * one shows up names nobody. Said on the empty inbox and, until the student dismisses it, above her cards.
 */
export const VOTES_ARRIVE_WITHIN_THE_HOUR =
  "New votes arrive within the hour, in no order of when they were cast, so nobody can work out who sent one from when it came.";
export const EMPTY_INBOX_MEANWHILE = "Meanwhile, keep voting, or Boost your profile to show up in more rounds.";

/** Out of votes: what arrived in the inbox meanwhile. */
export const meanwhileLabel = (count: number) =>
  count === 0
    ? "No new votes since you last looked at your inbox."
    : `Meanwhile: ${count >= INBOX_NEW_VOTES_MAX ? `${INBOX_NEW_VOTES_MAX}+` : count} new ${count === 1 ? "vote" : "votes"} in your inbox.`;

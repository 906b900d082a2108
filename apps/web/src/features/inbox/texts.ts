import { INBOX_NEW_VOTES_MAX } from "@quad/contracts";

/** The new-votes count as the badge says it: "3 new", "99+ new" at the cap. */
export const newVotesLabel = (count: number) =>
  `${count >= INBOX_NEW_VOTES_MAX ? `${INBOX_NEW_VOTES_MAX}+` : count} new`;

/** The empty inbox: how votes arrive and what to do meanwhile. */
export const EMPTY_INBOX_HOW =
  "Votes arrive when classmates pick you in their rounds. Each one lands here as a card you can unlock.";
export const EMPTY_INBOX_MEANWHILE = "Meanwhile, keep voting, or Boost your profile to show up in more rounds.";

/** Out of votes: what arrived in the inbox meanwhile. */
export const meanwhileLabel = (count: number) =>
  count === 0
    ? "No new votes since you last looked at your inbox."
    : `Meanwhile: ${count >= INBOX_NEW_VOTES_MAX ? `${INBOX_NEW_VOTES_MAX}+` : count} new ${count === 1 ? "vote" : "votes"} in your inbox.`;

/**
 * The home screen's entry points into received votes, unlocks, payments and
 * boosts. The home page renders these and knows nothing else of the feature.
 *
 * - <VotedOnYouButton />: the "See who voted for you" button and the
 *   "Voted on you" modal it opens (vote cards, detail, unlock, flash sale, Boost).
 * - <BuyUnlocksButton />: the "Buy Unlocks" button and the packages dialog.
 * - <NewVotesMeanwhile />: out of votes, how many votes arrived since the inbox was last opened.
 * - <BoostStatus />: the remaining-boost display ("Xd Yh", "Xh Ym", "Xm"); renders nothing without a boost.
 */
export { VotedOnYouButton, BuyUnlocksButton, BoostStatus, NewVotesMeanwhile } from "./home-entry";

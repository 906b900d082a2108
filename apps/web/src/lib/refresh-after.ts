import type { createTRPCQueryUtils } from "@trpc/react-query";
import type { AnyMutationProcedure, AnyProcedure, inferProcedureInput, inferProcedureOutput } from "@trpc/server";
import type { AppRouter } from "@quad/server/router";
import { isRoundError, type RoundResponse } from "@quad/contracts";
import { RECEIVED_VOTES_INPUT, withUnlockedCard } from "../features/inbox/use-received-votes";
import { isOutOfSkips } from "../features/rounds/round-errors";
import { errorCodeOf, httpStatusOf } from "./api-error";
import type { MutationOutcome } from "./trpc";

/**
 * What each mutation makes stale in the query cache, in one table. The data
 * layer applies an entry to every mutation's outcome (through the tRPC
 * client's afterMutationLink, and for the multipart profile update through
 * the REST client) before the caller sees the answer, so no screen refreshes
 * anything itself. An entry's `done` runs after the server took the write,
 * `failed` after the call failed; a promise either returns is waited for, so
 * return one only when the caller must not go on without it.
 *
 * The table has a row for every mutation of the server's router (typecheck
 * fails otherwise), so a new mutation says what it refreshes, even nothing.
 */

export type QueryUtils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;

type Procedures = AppRouter["_def"]["record"];

type MutationPaths<R, Prefix extends string = ""> = {
  [K in keyof R & string]: R[K] extends AnyProcedure
    ? R[K] extends AnyMutationProcedure
      ? `${Prefix}${K}`
      : never
    : MutationPaths<R[K], `${Prefix}${K}.`>;
}[keyof R & string];

/** Every mutation's dotted path, e.g. "rounds.vote". */
export type MutationPath = MutationPaths<Procedures>;

/** The procedure at a dotted path of the router's record. */
export type ProcedureAt<R, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof R
    ? ProcedureAt<R[Head], Rest>
    : never
  : P extends keyof R
    ? R[P]
    : never;

type OutputOf<P extends MutationPath> = inferProcedureOutput<ProcedureAt<Procedures, P>>;
type InputOf<P extends MutationPath> = inferProcedureInput<ProcedureAt<Procedures, P>>;

export interface Refresh<P extends MutationPath> {
  /** `input` is what the call sent; undefined for a REST write (multipart). */
  done?: (utils: QueryUtils, output: OutputOf<P>, input: InputOf<P> | undefined) => void | Promise<unknown>;
  failed?: (utils: QueryUtils, error: unknown) => void | Promise<unknown>;
}

/** Nothing cached depends on it. */
const NOTHING = {};

/** The cached round is the one a vote was cast in (its prompt, and the student voted for among its two). */
function showsRound(round: RoundResponse | undefined, vote: { promptId: number; userId: string }): boolean {
  return (
    !!round &&
    !isRoundError(round) &&
    round.prompt.id === vote.promptId &&
    round.users.some((u) => u.id === vote.userId)
  );
}

/** A refusal (4xx) says the round on screen is stale; a network failure says nothing. */
const refused = (error: unknown) => {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500;
};

/** The moderation queue and its trail, fetched again before the admin is told. */
const refetchModeration = (utils: QueryUtils) =>
  Promise.all([utils.admin.reviewQueue.invalidate(), utils.admin.auditTrail.invalidate()]);
// Even a failure may mean the queue changed under us (another admin acted).
const moderationQueue = { done: refetchModeration, failed: refetchModeration };

export const REFRESH_AFTER: { [P in MutationPath]: Refresh<P> } = {
  // The answer is the profile: it replaces the cached one (the switches read it).
  "account.pause": { done: (utils, me) => utils.users.me.setData(undefined, me) },
  "account.preview": { done: (utils, me) => utils.users.me.setData(undefined, me) },
  // The session ends: the dialog clears it, and the cache with it.
  "account.delete": NOTHING,

  "admin.restore": moderationQueue,
  "admin.removeProfile": moderationQueue,
  "admin.removePhoto": moderationQueue,

  // Signing in and out change the session (session-store.ts); a new session starts with its own cache.
  "auth.sendCode": NOTHING,
  "auth.verifyCode": NOTHING,
  "auth.firebase": NOTHING,
  "auth.refresh": NOTHING,
  "auth.logout": NOTHING,

  // The answer is the count from now on (0): every badge showing it drops at once.
  "inbox.markOpened": { done: (utils, counted) => utils.inbox.newVotes.setData(undefined, counted) },
  "inbox.unlock": {
    done: (utils, { unlockedUser, remainingUnlocks }) => {
      utils.users.me.setData(undefined, (me) => me && { ...me, remainingUnlocks });
      // The card shows its voter at once; the loaded pages come again, with the voter's other cards revealed too.
      utils.inbox.received.setInfiniteData(RECEIVED_VOTES_INPUT, (pages) => withUnlockedCard(pages, unlockedUser));
      void utils.inbox.received.invalidate();
    },
    failed: (utils, error) => {
      // 402: the credit count on screen was stale.
      if (errorCodeOf(error) === "PAYMENT_REQUIRED") {
        utils.users.me.setData(undefined, (me) => me && { ...me, remainingUnlocks: 0 });
      }
    },
  },

  // Reads that are mutations (each opening makes an intent; the first look starts the sale).
  "payments.createPaymentIntent": NOTHING,
  "payments.flashSale": NOTHING,
  // The payment dialog reports a confirmed payment for either provider: see REFRESH_AFTER_EVENT.
  "payments.localConfirm": NOTHING,

  // The device switch shows the browser's own subscription; nothing the server answers is cached.
  "push.subscribe": NOTHING,
  "push.unsubscribe": NOTHING,

  "rounds.skip": {
    // The answer is the next round.
    done: (utils, next) => utils.rounds.open.setData(undefined, next),
    failed: (utils, error) => {
      if (!isOutOfSkips(error)) return;
      utils.rounds.open.setData(undefined, (round) =>
        round && !isRoundError(round) ? { ...round, prompt: { ...round.prompt, skipDisabled: true } } : round,
      );
    },
  },
  "rounds.vote": {
    // The round is closed: the next one is in the cache when the vote resolves. The live stream's state event
    // fetches it the moment the vote is stored, before this answer has travelled back: that fetch is kept, not
    // restarted (on a phone network a restart costs a second round trip), unless it brought the round voted in.
    done: async (utils, _result, input) => {
      if (!input) return utils.rounds.open.invalidate();
      if (!showsRound(utils.rounds.open.getData(), input)) return;
      await utils.rounds.open.invalidate(undefined, undefined, { cancelRefetch: false });
      if (showsRound(utils.rounds.open.getData(), input)) await utils.rounds.open.invalidate();
    },
    failed: (utils, error) => {
      if (refused(error)) void utils.rounds.open.invalidate();
    },
  },

  // The server closes a round that showed the student blocked or reported; an unblocked student may be drawn again.
  "safety.block": {
    done: (utils) => {
      void utils.safety.blocks.invalidate();
      void utils.rounds.open.invalidate();
    },
  },
  "safety.unblock": {
    done: (utils) => Promise.all([utils.safety.blocks.invalidate(), utils.rounds.open.invalidate()]),
  },
  "safety.report": { done: (utils) => void utils.rounds.open.invalidate() },

  "schoolEmail.sendCode": NOTHING,
  "schoolEmail.verify": {
    // The answer is the profile, now a member (perhaps of another school): its rounds are new.
    done: (utils, me) => {
      utils.users.me.setData(undefined, me);
      void utils.rounds.open.invalidate();
    },
  },

  "users.update": {
    done: (utils, { user }) => {
      const before = utils.users.me.getData();
      utils.users.me.setData(undefined, user);
      // Another preference: drop the old round (the cards show loading) and wait for one of the new choice.
      if (before && before.preference !== user.preference) return utils.rounds.open.reset();
    },
  },
  "users.setSms": { done: (utils, settings) => utils.users.smsSettings.setData(undefined, settings) },
};

/** What the client learns happened on the server without a mutation of its own. */
export const REFRESH_AFTER_EVENT = {
  /** A card payment went through (Stripe's webhook or the local provider fulfils it): credits or the boost end. */
  paymentConfirmed: (utils: QueryUtils) => utils.users.me.invalidate(),
  /** The live stream brought a vote for this student: the inbox's list and the home entry's new-votes count read it. */
  liveVote: (utils: QueryUtils) =>
    Promise.all([utils.inbox.received.invalidate(), utils.inbox.newVotes.invalidate(), utils.users.me.invalidate()]),
  /** Another tab or device voted or skipped: votes left, skips left and the cooldown are the round's. */
  liveState: (utils: QueryUtils) => utils.rounds.open.invalidate(),
  /** The live stream (re)opened: whatever came while it was closed is read again. */
  liveReady: (utils: QueryUtils) =>
    Promise.all([
      utils.inbox.received.invalidate(),
      utils.inbox.newVotes.invalidate(),
      utils.users.me.invalidate(),
      utils.rounds.open.invalidate(),
    ]),
} satisfies Record<string, (utils: QueryUtils) => Promise<unknown>>;

export type ClientEvent = keyof typeof REFRESH_AFTER_EVENT;

/** The REST writes the web makes (multipart, which tRPC cannot carry), by the procedure they share a row with. */
export const REST_WRITES: Record<string, MutationPath> = { "PATCH /users/update": "users.update" };

/** Applies `path`'s entry to a mutation's outcome. Never rejects: a refresh that throws is a bug, logged. */
export async function refreshAfter(utils: QueryUtils, path: string, outcome: MutationOutcome): Promise<void> {
  const entry = (REFRESH_AFTER as Record<string, Refresh<MutationPath> | undefined>)[path];
  try {
    if ("error" in outcome) await entry?.failed?.(utils, outcome.error);
    else await entry?.done?.(utils, outcome.output as never, outcome.input as never);
  } catch (error) {
    console.error(`Refreshing after ${path} failed`, error);
  }
}

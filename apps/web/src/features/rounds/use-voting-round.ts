import { useCallback, useEffect, useState } from "react";
import {
  isRoundError,
  SCREEN_TEXT,
  SKIPS_IN_A_ROW,
  TOASTS,
  VOTE_COOLDOWN_MS,
  type CandidateOption,
  type Gender,
  type RoundError,
  type Round,
} from "@quad/contracts";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { isOutOfSkips, outOfVotesUntil } from "./round-errors";
import { rememberCooldown, rememberedCooldown } from "./cooldown-memory";
import { useSkipsUsed } from "./skip-memory";

/** What the round area shows. */
export type RoundView =
  | { kind: "loading" }
  | { kind: "round"; round: Round }
  | { kind: "out_of_votes"; availableAt: string }
  | { kind: "empty"; message: string }
  | { kind: "failed" };

/** How long the pick shows on its card ("Voted") before the next round replaces it. */
export const PICK_SHOWN_MS = 300;
const pickShown = () => new Promise<void>((resolve) => setTimeout(resolve, PICK_SHOWN_MS));
/** Said when a vote is tapped while offline. */
export const OFFLINE_VOTE = "You're offline. Your vote will be sent when you're back online.";
const offline = () => typeof navigator !== "undefined" && navigator.onLine === false;
const backOnline = () =>
  new Promise<void>((resolve) => window.addEventListener("online", () => resolve(), { once: true }));

/** A short buzz where the device can (navigator.vibrate: Android browsers; iOS has none). */
export const PICK_VIBRATION_MS = 30;
function buzz() {
  try {
    navigator.vibrate?.(PICK_VIBRATION_MS);
  } catch {
    // Some browsers throw without a user gesture or in a frame: the pick shows anyway.
  }
}

function viewOfError(error: RoundError): RoundView {
  if (error.error === "out_of_votes") {
    return {
      kind: "out_of_votes",
      availableAt: error.availableAt ?? new Date(Date.now() + VOTE_COOLDOWN_MS).toISOString(),
    };
  }
  return { kind: "empty", message: error.error === "no_candidates" ? SCREEN_TEXT.noStudents : error.message };
}

export interface VotingRound {
  view: RoundView;
  /** A new round is on its way (after a vote, a skip or a preference change). */
  busy: boolean;
  /** Skips left in a row, out of SKIPS_IN_A_ROW. */
  skipsLeft: number;
  skipping: boolean;
  votingFor: string | null;
  chosenId: string | null;
  vote: (candidate: CandidateOption) => Promise<void>;
  skip: () => Promise<void>;
  /** Ask the server for the round again (after a failure, or when votes come back). */
  reload: () => void;
  /** Set while the "Out of Votes" modal is open: when votes come back. */
  outOfVotesModal: string | null;
  closeOutOfVotes: () => void;
  outOfSkipsModal: boolean;
  closeOutOfSkips: () => void;
  /** A vote went through since the screen opened (offers wait for it). */
  voted: boolean;
  /** For screen readers after a skip, when focus stays on Skip: what the new round asks. */
  announcement: string;
}

/**
 * The home round loop of docs/product.md: load the open round, vote ("Vote sent 🤩",
 * then the next round, skips reset), skip (counted, "Out of Skips" when none
 * are left), and "Out of Votes" after the last vote of the batch. What a vote
 * or a skip brings next reaches the cached round through lib/refresh-after.ts.
 */
export function useVotingRound({ userId, preference }: { userId: string; preference: Gender | null }): VotingRound {
  // The server answers the open round again on every call, so a refetch never burns a round.
  const query = trpc.rounds.open.useQuery();
  const storeVote = trpc.rounds.vote.useMutation();
  const skipRound = trpc.rounds.skip.useMutation();
  const [skipsUsed, setSkipsUsed] = useSkipsUsed(userId);
  const [votingFor, setVotingFor] = useState<string | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [skipping, setSkipping] = useState(false);
  const [outOfVotesModal, setOutOfVotesModal] = useState<string | null>(null);
  const [outOfSkipsModal, setOutOfSkipsModal] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const [voted, setVoted] = useState(false);
  // The round voted in stays on screen until its pick has shown, though the next one is already cached.
  const [held, setHeld] = useState<Round | null>(null);

  useEffect(() => {
    if (query.isError) notify.error(TOASTS.fetchPromptFailed);
  }, [query.isError, query.errorUpdatedAt]);

  // While the server is asked, a cooldown this device saw (and that has not ended) is shown as it is.
  const [cooldownHint] = useState(() => rememberedCooldown(userId));
  let view: RoundView;
  if (held) view = { kind: "round", round: held };
  else if (query.isError) view = { kind: "failed" };
  else if (!query.data) view = cooldownHint ? { kind: "out_of_votes", availableAt: cooldownHint } : { kind: "loading" };
  else if (isRoundError(query.data)) view = viewOfError(query.data);
  else view = { kind: "round", round: query.data };

  const shownCooldown = query.data && view.kind === "out_of_votes" ? view.availableAt : null;
  useEffect(() => {
    if (query.data && !held) rememberCooldown(userId, shownCooldown);
  }, [userId, query.data, held, shownCooldown]);

  const round = view.kind === "round" ? view.round : null;
  // The server's skipDisabled is the truth for "none left"; otherwise at least one is.
  const skipsLeft = round?.prompt.skipDisabled ? 0 : Math.min(SKIPS_IN_A_ROW, Math.max(1, SKIPS_IN_A_ROW - skipsUsed));

  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);

  const vote = async (candidate: CandidateOption) => {
    if (!round || votingFor !== null || skipping) return;
    // The pick shows at once (the card lifts, the phone buzzes) and holds at least PICK_SHOWN_MS, while the vote
    // and the next round (fetched by the vote's refresh row) travel: the hold hides the wait instead of adding to it.
    setVotingFor(candidate.id);
    setChosenId(candidate.id);
    setHeld(round);
    buzz();
    const hold = pickShown();
    try {
      const send = () =>
        storeVote.mutateAsync({
          userId: candidate.id,
          promptId: round.prompt.id,
          ...(preference ? { preference } : {}),
        });
      let result: Awaited<ReturnType<typeof send>>;
      try {
        result = await send();
      } catch (error) {
        // Offline: the pick stays on screen and the vote goes out once the browser is back online.
        if (!offline()) throw error;
        notify.info(OFFLINE_VOTE);
        await backOnline();
        result = await send();
      }
      setVotingFor(null);
      setVoted(true);
      notify.success(TOASTS.voteSent);
      setSkipsUsed(0);
      if (result.disabled) {
        setOutOfVotesModal(result.availableAt ?? new Date(Date.now() + VOTE_COOLDOWN_MS).toISOString());
      }
      await hold;
    } catch (error) {
      setVotingFor(null);
      const until = outOfVotesUntil(error);
      if (until) setOutOfVotesModal(until);
      else notify.error(toUserMessage(error, TOASTS.submitVoteFailed));
    } finally {
      setChosenId(null);
      setHeld(null);
    }
  };

  const skip = async () => {
    if (!round || votingFor !== null || skipping) return;
    if (skipsLeft === 0) {
      setOutOfSkipsModal(true);
      return;
    }
    setSkipping(true);
    try {
      const next = await skipRound.mutateAsync();
      setSkipsUsed((used) => used + 1);
      setAnnouncement(isRoundError(next) ? "" : `Skipped. New round: ${next.prompt.prompt}`);
    } catch (error) {
      if (isOutOfSkips(error)) {
        setSkipsUsed(SKIPS_IN_A_ROW);
        setOutOfSkipsModal(true);
      } else {
        // A failed skip is only logged (docs/product.md "In the app"); the round on screen stays.
        console.warn("Skipping the round failed", error);
      }
    } finally {
      setSkipping(false);
    }
  };

  return {
    view,
    busy: !held && query.isFetching && view.kind !== "loading",
    skipsLeft,
    skipping,
    votingFor,
    chosenId,
    vote,
    skip,
    reload,
    outOfVotesModal,
    closeOutOfVotes: () => setOutOfVotesModal(null),
    outOfSkipsModal,
    closeOutOfSkips: () => setOutOfSkipsModal(false),
    announcement,
    voted,
  };
}

import type { LiveEvent } from "@quad/contracts";
import { useEffect, useRef, useState } from "react";
import { REFRESH_AFTER_EVENT } from "../../lib/refresh-after";
import { trpc } from "../../lib/trpc";

/** After the server ends a stream (its token expired, idle, a restart), the next one opens this much later. */
const REOPEN_AFTER_MS = 1_000;
/**
 * The first stream opens this long after the screen: its own requests go first, and whatever
 * came meanwhile arrives with the stream's `ready`. (Tools that wait for the network to go quiet,
 * the browser tests' among them, also see it quiet before a request that never ends.)
 */
const FIRST_OPEN_AFTER_MS = 1_500;

/** A tracked event arrives as `{ id, data }`, the others as they are. */
const eventOf = (value: LiveEvent | { id: string; data: LiveEvent }): { id?: string; event: LiveEvent } =>
  "data" in value ? { id: value.id, event: value.data } : { event: value };

/**
 * Keeps the open app live: a vote for this student, a vote or skip in
 * another tab or device, refresh the queries that show them
 * (REFRESH_AFTER_EVENT). Nothing is shown about the stream itself: where
 * it cannot open (a proxy that blocks streams, the caps), the screens keep
 * refreshing as they always did, and say nothing.
 */
export function useLiveUpdates(enabled = true): void {
  const utils = trpc.useUtils();
  const lastEventId = useRef<string | undefined>(undefined);
  const [resumeFrom, setResumeFrom] = useState<string | undefined>(undefined);
  // Off between a stream the server ended and the next: turning it back on opens a new one.
  const [between, setBetween] = useState(true);
  const reopen = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    reopen.current = setTimeout(() => setBetween(false), FIRST_OPEN_AFTER_MS);
    return () => clearTimeout(reopen.current);
  }, []);

  trpc.live.events.useSubscription(resumeFrom ? { lastEventId: resumeFrom } : undefined, {
    enabled: enabled && !between,
    onData(value) {
      const { id, event } = eventOf(value);
      if (id) lastEventId.current = id;
      const refresh =
        event.type === "vote"
          ? REFRESH_AFTER_EVENT.liveVote
          : event.type === "state"
            ? REFRESH_AFTER_EVENT.liveState
            : REFRESH_AFTER_EVENT.liveReady;
      void refresh(utils);
    },
    onComplete() {
      // The server ended it: open the next one from the last event, quietly.
      clearTimeout(reopen.current);
      setBetween(true);
      reopen.current = setTimeout(() => {
        setResumeFrom(lastEventId.current);
        setBetween(false);
      }, REOPEN_AFTER_MS);
    },
    onError() {
      // Refused (a cap, a closed inbox) or blocked: the screens' own refreshing carries on.
    },
  });
}

import { useCallback, useEffect, useState } from "react";
import { TOASTS, type Gender, type RoundError, type Round } from "@quad/contracts";
import { notify } from "../../lib/toast";
import { fetchPreviewRound } from "./preview-round";

export type PreviewState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ready"; round: Round }
  | { status: "empty"; error: RoundError }
  | { status: "failed" };

type Settled = Exclude<PreviewState, { status: "idle" | "loading" }>;

/**
 * The landing preview round for `gender` (none until one is chosen).
 * A failed load toasts "Failed to load prompt"; `retry` asks again.
 */
export function usePreviewRound(gender: Gender | null): PreviewState & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const requestKey = gender ? `${gender}#${attempt}` : null;
  const [settled, setSettled] = useState<{ key: string; state: Settled } | null>(null);

  useEffect(() => {
    if (!gender || !requestKey) return;
    const controller = new AbortController();
    fetchPreviewRound(gender, controller.signal).then(
      (response) =>
        setSettled({
          key: requestKey,
          // `"error" in` rather than contracts' isRoundError: that module would bring zod to the first page.
          state: "error" in response ? { status: "empty", error: response } : { status: "ready", round: response },
        }),
      () => {
        if (controller.signal.aborted) return;
        notify.error(TOASTS.loadPromptFailed);
        setSettled({ key: requestKey, state: { status: "failed" } });
      },
    );
    return () => controller.abort();
  }, [gender, requestKey]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  if (!requestKey) return { status: "idle", retry };
  if (settled?.key !== requestKey) return { status: "loading", retry };
  return { ...settled.state, retry };
}

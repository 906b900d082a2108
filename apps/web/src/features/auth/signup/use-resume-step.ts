import { useEffect, useState } from "react";
import { isUnauthorizedError } from "../../../lib/api-error";
import { useSessionStore } from "../../../lib/session-store";
import { SKIP_AUTH_REDIRECT, trpc } from "../../../lib/trpc";
import { resumeStep, type WizardStep } from "./wizard-steps";

/**
 * The step the wizard opens at (see `resumeStep`), decided once when the
 * wizard mounts. A session without a loaded profile (a reload after the phone
 * was verified) first asks the server for the profile. Null while it does.
 */
export function useResumeStep(startAt: WizardStep): WizardStep | null {
  const utils = trpc.useUtils();
  const [step, setStep] = useState<WizardStep | null>(() => {
    const { token } = useSessionStore.getState();
    const user = utils.users.me.getData() ?? null;
    if (token !== null && user === null) return null;
    return resumeStep({ startAt, signedIn: token !== null, user });
  });

  useEffect(() => {
    if (step !== null) return;
    let cancelled = false;
    // Into the query cache: a profile the server has verified meanwhile sends the guard on to /home.
    utils.users.me.fetch(undefined, { ...SKIP_AUTH_REDIRECT, staleTime: 0, retry: false }).then(
      (user) => {
        if (!cancelled) setStep(resumeStep({ startAt, signedIn: true, user }));
      },
      (error: unknown) => {
        // An expired session starts over signed out; no profile yet starts at the first question.
        const signedIn = !isUnauthorizedError(error);
        if (!signedIn) useSessionStore.getState().clear();
        if (!cancelled) setStep(resumeStep({ startAt, signedIn, user: null }));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [step, startAt, utils]);

  return step;
}

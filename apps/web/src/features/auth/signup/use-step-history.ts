import { useEffect, useRef } from "react";
import { WIZARD_STEPS, type WizardStep } from "./wizard-steps";

/**
 * One browser history entry per wizard step, so the browser's Back (or a
 * phone's back gesture) goes one step back inside the wizard instead of
 * leaving it. Each entry is marked in `history.state`, next to react-router's
 * own keys and at the same URL, with its step and the step it was reached
 * from (the way components/dialog-history.ts marks dialogs).
 */

const STEP_KEY = "quadSignupStep";
const FROM_KEY = "quadSignupFrom";

function currentState(): Record<string, unknown> {
  const state: unknown = window.history.state;
  return typeof state === "object" && state !== null ? (state as Record<string, unknown>) : {};
}

function isStep(value: unknown): value is WizardStep {
  return (WIZARD_STEPS as readonly unknown[]).includes(value);
}

export interface StepHistory {
  /** The student moved on the page (Next, a choice, an answer from the server): a new entry. */
  push: (target: WizardStep, from: WizardStep) => void;
  /**
   * The page's Back to `target`: the browser's Back when the entry below is
   * that step (its popstate shows it); false when it is not (after a
   * reload), and the caller moves by itself, in place.
   */
  back: (target: WizardStep) => boolean;
  /** Marks the current entry as `target` (a move without a new entry). */
  replace: (target: WizardStep) => void;
}

/**
 * `show` displays a step reached by the browser's Back or Forward; while
 * `stay(current)` holds (the photo step: Back is disabled there, or a call
 * in flight) the entry is put back and the step stays.
 */
export function useStepHistory(
  step: WizardStep,
  show: (target: WizardStep) => void,
  stay: (current: WizardStep) => boolean,
): StepHistory {
  const latest = useRef({ step, show, stay });
  useEffect(() => {
    latest.current = { step, show, stay };
  });

  useEffect(() => {
    window.history.replaceState({ ...currentState(), [STEP_KEY]: latest.current.step }, "");
    const onPopState = () => {
      const target = currentState()[STEP_KEY];
      const { step: current, show: display, stay: hold } = latest.current;
      if (!isStep(target) || target === current) return;
      if (hold(current)) {
        window.history.pushState({ ...currentState(), [STEP_KEY]: current, [FROM_KEY]: target }, "");
        return;
      }
      display(target);
    };
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, []);

  return {
    push: (target, from) => window.history.pushState({ ...currentState(), [STEP_KEY]: target, [FROM_KEY]: from }, ""),
    back: (target) => {
      if (currentState()[FROM_KEY] !== target) return false;
      window.history.back();
      return true;
    },
    replace: (target) => window.history.replaceState({ ...currentState(), [STEP_KEY]: target }, ""),
  };
}

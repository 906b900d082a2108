import { useRef } from "react";
import type { SignupValues } from "../signup-values";

/**
 * A choice among radios that moves the wizard on when tapped or clicked, but
 * not when made with the keyboard (the arrow keys walk through the options;
 * Enter moves on). `group` goes on the fieldset, `picked` on each radio's click.
 */
export function usePick(onPick: ((patch: Partial<SignupValues>) => void) | undefined) {
  const byKeys = useRef(false);
  return {
    group: {
      onKeyDown: () => {
        byKeys.current = true;
      },
      onPointerDown: () => {
        byKeys.current = false;
      },
    },
    picked: (patch: Partial<SignupValues>) => {
      if (!byKeys.current) onPick?.(patch);
    },
  };
}

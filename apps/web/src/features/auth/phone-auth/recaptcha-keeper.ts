/** The part of Firebase's RecaptchaVerifier this app relies on. */
export interface ClearableVerifier {
  clear(): void;
}

/**
 * Holds the invisible reCAPTCHA verifier for whichever element currently
 * hosts it. A verifier is tied to its element: once React removes that
 * element (the student went back a step, the screen re-rendered) the old
 * verifier fails with "reCAPTCHA client element has been removed", so a new
 * one is created on the element that is there now (docs/product.md).
 */
export interface VerifierKeeper<V extends ClearableVerifier> {
  /** The verifier for `element`, re-created if the last one's element is gone or different. */
  get(element: HTMLElement): V;
  /** Forgets the current verifier (after a failure, so the next attempt starts clean). */
  reset(): void;
}

export function createVerifierKeeper<V extends ClearableVerifier>(
  create: (element: HTMLElement) => V,
): VerifierKeeper<V> {
  let current: { verifier: V; element: HTMLElement } | null = null;

  const reset = () => {
    const previous = current;
    current = null;
    try {
      previous?.verifier.clear();
    } catch {
      // Clearing a verifier whose element is already gone may throw; it is discarded either way.
    }
  };

  return {
    get(element) {
      if (current && current.element === element && element.isConnected) return current.verifier;
      reset();
      current = { verifier: create(element), element };
      return current.verifier;
    },
    reset,
  };
}

/** Firebase's error when a verifier's element was removed from the page. */
export function isRemovedElementError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return /element has been removed/i.test(message);
}

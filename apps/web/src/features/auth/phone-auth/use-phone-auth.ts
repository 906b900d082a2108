import { useMemo, useRef, type RefObject } from "react";
import { trpc } from "../../../lib/trpc";
import { createLocalPhoneAuth } from "./local-phone-auth";
import { selectPhoneAuthFlow, type PhoneAuthFlow } from "./phone-auth";

/**
 * The phone sign-in flow the server is configured for (`config.public`).
 * The choice is made on first use, so Firebase is only downloaded by people
 * sending a code to a server that uses it. `recaptchaHost` is the element
 * the invisible reCAPTCHA lives in (Firebase only); it may be swapped for a
 * new element between calls.
 */
export function usePhoneAuth(recaptchaHost: RefObject<HTMLElement | null>): PhoneAuthFlow {
  const utils = trpc.useUtils();
  const selected = useRef<Promise<PhoneAuthFlow> | null>(null);

  return useMemo(() => {
    const flow = (): Promise<PhoneAuthFlow> => {
      if (!selected.current) {
        const choosing = utils.config.public.fetch(undefined, { staleTime: Infinity }).then((config) =>
          selectPhoneAuthFlow(config, {
            local: () => createLocalPhoneAuth(utils.client),
            firebase: async (firebaseConfig) => {
              const { createFirebasePhoneAuth, loadFirebasePhoneSdk } = await import("./firebase-phone-auth");
              return createFirebasePhoneAuth({
                sdk: await loadFirebasePhoneSdk(firebaseConfig),
                getContainer: () => recaptchaHost.current,
                exchangeIdToken: (idToken, consents) =>
                  utils.client.auth.firebase.mutate({ idToken, ...(consents ? { consents } : {}) }),
              });
            },
          }),
        );
        // A failed choice (offline, say) is not remembered: the next attempt asks again.
        choosing.catch(() => {
          if (selected.current === choosing) selected.current = null;
        });
        selected.current = choosing;
      }
      return selected.current;
    };

    return {
      sendCode: async (phone) => (await flow()).sendCode(phone),
      verifyCode: async (phone, code, consents) => (await flow()).verifyCode(phone, code, consents),
    };
  }, [utils, recaptchaHost]);
}

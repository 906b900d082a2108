import { TOASTS, type Gender, type MeUser } from "@quad/contracts";
import { fieldErrorsOf, httpStatusOf, toUserMessage } from "../../../lib/api-error";
import type { RestClient } from "../../../lib/rest-client";
import { notify } from "../../../lib/toast";
import { SKIP_AUTH_REDIRECT, type trpc } from "../../../lib/trpc";
import { basicProfile, type SignupErrors, type SignupValues } from "./signup-values";
import { BASIC_FIELDS, firstMissingStep, STEP_OF_FIELD, WIZARD_STEPS, type WizardStep } from "./wizard-steps";

/**
 * The sign-up's profile calls (docs/product.md "Signing up and signing in"): the first
 * users.update with the basic fields, the profile lookup after /opt-in, and
 * the photo upload. What the server answers becomes the cached profile
 * (lib/refresh-after.ts, users.update; the lookup reads into the cache), and
 * each tells the wizard where to go next; failures are toasted here.
 */
export type ProfileOutcome =
  /** The server verified the profile: signed in for good, on to /home with this toast. */
  | { kind: "signedIn"; message: string }
  /** Carry on at `step`; `user` is a stored profile to pre-fill from. */
  | { kind: "step"; step: WizardStep; user?: MeUser; errors?: SignupErrors }
  /** Stay where the wizard is, showing `errors`. */
  | { kind: "stay"; errors?: SignupErrors };

export interface ProfileApi {
  utils: ReturnType<typeof trpc.useUtils>;
  rest: RestClient;
}

/** A stored profile decides: verified is done, otherwise fill what is missing, then the photo. */
function outcomeFor(user: MeUser, signedInMessage: string): ProfileOutcome {
  if (user.isVerified) return { kind: "signedIn", message: signedInMessage };
  const missing = firstMissingStep(user);
  return missing ? { kind: "step", step: missing, user } : { kind: "step", step: "profileImage" };
}

/** Creates (or updates) the profile with the basic fields, and the landing preference if one came along. */
export async function saveBasicProfile(
  api: ProfileApi,
  values: SignupValues,
  preference?: Gender,
): Promise<ProfileOutcome> {
  const profile = basicProfile(values);
  if (!profile) return { kind: "step", step: WIZARD_STEPS[0] };
  try {
    const { user } = await api.utils.client.users.update.mutate({ ...profile, ...(preference ? { preference } : {}) });
    return outcomeFor(user, TOASTS.loggedIn);
  } catch (error) {
    notify.error(toUserMessage(error, TOASTS.createAccountFailed));
    // The server's field messages go back to the step that asks for the field.
    const fieldErrors = fieldErrorsOf(error);
    const field = BASIC_FIELDS.find((f) => fieldErrors[f]?.length);
    return field
      ? { kind: "step", step: STEP_OF_FIELD[field], errors: { [field]: fieldErrors[field]![0] } }
      : { kind: "stay" };
  }
}

/** After /opt-in with nothing filled in: whatever the server already has decides where to go. */
export async function continueStoredProfile(api: ProfileApi): Promise<ProfileOutcome> {
  try {
    const user = await api.utils.users.me.fetch(undefined, { ...SKIP_AUTH_REDIRECT, staleTime: 0, retry: false });
    return outcomeFor(user, TOASTS.loggedIn);
  } catch (error) {
    // 404: no profile yet, so it starts at the first question.
    if (httpStatusOf(error) !== 404) notify.error(TOASTS.fetchUserFailed);
    return { kind: "step", step: WIZARD_STEPS[0] };
  }
}

/**
 * Uploads the cropped photo (multipart, with the isVerified request); the
 * server verifies a complete profile with a processed photo.
 */
export async function uploadProfilePhoto(api: ProfileApi, cropped: Blob): Promise<ProfileOutcome> {
  const form = new FormData();
  form.append("isVerified", "true");
  form.append("profileImage", new File([cropped], "profile.jpg", { type: "image/jpeg" }));
  try {
    const { user } = await api.rest.request<{ user: MeUser }>("/users/update", { method: "PATCH", body: form });
    const outcome = outcomeFor(user, TOASTS.accountCreated);
    if (outcome.kind !== "signedIn") notify.error(TOASTS.createAccountFailed);
    return outcome;
  } catch (error) {
    const message = toUserMessage(error, TOASTS.createAccountFailed);
    notify.error(message);
    return { kind: "stay", errors: { profileImage: message } };
  }
}

import { useState } from "react";
import { TOASTS, type Gender, type MeUser } from "@quad/contracts";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useSaveProfile } from "../session/use-save-profile";

/** Until a student picks, the server shows the other gender (docs/architecture.md). */
export function shownGender(user: Pick<MeUser, "preference" | "gender"> | null): Gender | null {
  if (!user) return null;
  if (user.preference) return user.preference;
  if (user.gender) return user.gender === "male" ? "female" : "male";
  return null;
}

/**
 * The home screen's Guys/Girls switch: saves the preference, updates the
 * session's user, and loads a round of the new choice.
 */
export function usePreference(user: MeUser | null) {
  const utils = trpc.useUtils();
  const update = trpc.users.update.useMutation();
  const saveProfile = useSaveProfile();
  const [pending, setPending] = useState<Gender | null>(null);
  const current = shownGender(user);

  const change = async (next: Gender) => {
    if (next === current || pending !== null) return;
    setPending(next);
    try {
      const { user: saved } = await update.mutateAsync({ preference: next });
      saveProfile(saved);
      // Drop the old round so the cards show loading, then fetch one of the new choice.
      await utils.rounds.open.reset();
    } catch (error) {
      notify.error(toUserMessage(error, TOASTS.processRequestFailed));
    } finally {
      setPending(null);
    }
  };

  return { value: pending ?? current, saving: pending !== null, change };
}

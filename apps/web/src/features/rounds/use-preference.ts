import { useState } from "react";
import { TOASTS, type Gender, type MeUser } from "@quad/contracts";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";

/** Until a student picks, the server shows the other gender (docs/architecture.md). */
export function shownGender(user: Pick<MeUser, "preference" | "gender"> | null): Gender | null {
  if (!user) return null;
  if (user.preference) return user.preference;
  if (user.gender) return user.gender === "male" ? "female" : "male";
  return null;
}

/**
 * The home screen's Guys/Girls switch: saves the preference; the profile
 * and a round of the new choice follow (lib/refresh-after.ts, users.update),
 * and the switch shows the choice as pending until that round is in.
 */
export function usePreference(user: MeUser) {
  const update = trpc.users.update.useMutation();
  const [pending, setPending] = useState<Gender | null>(null);
  const current = shownGender(user);

  const change = async (next: Gender) => {
    if (next === current || pending !== null) return;
    setPending(next);
    try {
      await update.mutateAsync({ preference: next });
    } catch (error) {
      notify.error(toUserMessage(error, TOASTS.processRequestFailed));
    } finally {
      setPending(null);
    }
  };

  return { value: pending ?? current, saving: pending !== null, change };
}

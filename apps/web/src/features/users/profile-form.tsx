import { TOASTS, type MeUser } from "@quad/contracts";
import { useState, type FormEvent } from "react";
import { Button } from "../../components";
import { fieldErrorsOf, toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { FirstNameField, InstagramField } from "../auth/ui/profile-fields";
import { EmojiPicker } from "./emoji-picker";
import {
  changedFields,
  firstErrors,
  profileValuesOf,
  validateChanges,
  type ProfileErrors,
  type ProfileValues,
} from "./profile-values";
import styles from "./profile.module.css";
import { TagListField } from "./tag-list-field";
import { USERS_TEXT } from "./texts";

/**
 * First name, Instagram handle, organizations, interests and emojis. Checked
 * with the contracts' schema before sending; only changed fields are sent.
 */
export function ProfileForm({ user }: { user: MeUser }) {
  const saved = profileValuesOf(user);
  const [values, setValues] = useState<ProfileValues>(saved);
  const [errors, setErrors] = useState<ProfileErrors>({});
  const update = trpc.users.update.useMutation();
  const changes = changedFields(saved, values);
  const dirty = Object.keys(changes).length > 0;

  const change = (patch: Partial<ProfileValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as keyof ProfileValues];
      return next;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateChanges(changes, values);
    if (invalid) {
      setErrors(invalid);
      return;
    }
    try {
      const { user: stored } = await update.mutateAsync(changes);
      setValues(profileValuesOf(stored));
      notify.success(USERS_TEXT.profileSaved);
    } catch (error) {
      setErrors(firstErrors(fieldErrorsOf(error), values));
      notify.error(toUserMessage(error, TOASTS.processRequestFailed));
    }
  };

  const busy = update.isPending;
  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
      <FirstNameField
        value={values.firstName}
        onChange={(firstName) => change({ firstName })}
        error={errors.firstName}
        disabled={busy}
      />
      <InstagramField
        value={values.instagramHandle}
        onChange={(instagramHandle) => change({ instagramHandle })}
        error={errors.instagramHandle}
        disabled={busy}
        hint="Only someone you vote for can unlock it."
      />
      <TagListField
        label="Organizations"
        placeholder="A club, team or society"
        values={values.organizations}
        onChange={(organizations) => change({ organizations })}
        error={errors.organizations}
        disabled={busy}
      />
      <TagListField
        label="Interests"
        placeholder="Something you love doing"
        values={values.interests}
        onChange={(interests) => change({ interests })}
        error={errors.interests}
        disabled={busy}
      />
      <EmojiPicker
        value={values.emojis}
        onChange={(emojis) => change({ emojis })}
        error={errors.emojis}
        disabled={busy}
      />
      <Button type="submit" size="lg" block disabled={!dirty} loading={busy}>
        Save profile
      </Button>
    </form>
  );
}

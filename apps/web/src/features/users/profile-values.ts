import { ProfileUpdateSchema, type MeUser, type ProfileUpdateInput } from "@quad/contracts";

/** The editable text parts of a profile, as the settings form holds them. */
export interface ProfileValues {
  firstName: string;
  instagramHandle: string;
  organizations: string[];
  interests: string[];
  emojis: string[];
}

export type ProfileField = keyof ProfileValues;
export type ProfileErrors = Partial<Record<ProfileField, string>>;

export function profileValuesOf(user: MeUser): ProfileValues {
  return {
    firstName: user.firstName ?? "",
    instagramHandle: user.instagramHandle ?? "",
    organizations: user.organizations,
    interests: user.interests,
    emojis: user.emojis,
  };
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/** Only what changed goes to the server. */
export function changedFields(saved: ProfileValues, edited: ProfileValues): ProfileUpdateInput {
  const changes: ProfileUpdateInput = {};
  if (edited.firstName !== saved.firstName) changes.firstName = edited.firstName;
  if (edited.instagramHandle !== saved.instagramHandle) changes.instagramHandle = edited.instagramHandle;
  if (!sameList(edited.organizations, saved.organizations)) changes.organizations = edited.organizations;
  if (!sameList(edited.interests, saved.interests)) changes.interests = edited.interests;
  if (!sameList(edited.emojis, saved.emojis)) changes.emojis = edited.emojis;
  return changes;
}

/**
 * First message per field, from the contracts' schema ("organizations.2"
 * belongs to organizations). A message about one entry of a list names it,
 * so the student knows which chip to fix.
 */
export function firstErrors(messages: Record<string, string[] | undefined>, values?: ProfileValues): ProfileErrors {
  const errors: ProfileErrors = {};
  for (const [path, list] of Object.entries(messages)) {
    const [field, index] = path.split(".") as [ProfileField, string | undefined];
    const message = list?.[0];
    if (!message) continue;
    const value = values?.[field];
    const entry = Array.isArray(value) && index !== undefined ? value[Number(index)] : undefined;
    errors[field] ??= entry === undefined ? message : `“${entry}”: ${message}`;
  }
  return errors;
}

/** Checks the changes with the same schema the server uses; null when they pass. */
export function validateChanges(changes: ProfileUpdateInput, values?: ProfileValues): ProfileErrors | null {
  const result = ProfileUpdateSchema.safeParse(changes);
  if (result.success) return null;
  const messages: Record<string, string[]> = {};
  for (const issue of result.error.issues) (messages[issue.path.join(".")] ??= []).push(issue.message);
  return firstErrors(messages, values);
}

import type { MeUser } from "@quad/contracts";
import { trpc } from "../../lib/trpc";

/**
 * The signed-in student's profile: users.me in the query cache, its only
 * home. Mutations that change it write it there (lib/refresh-after.ts); a
 * 401 here ends the session like any other call's.
 */
export function useProfile() {
  return trpc.users.me.useQuery();
}

/** One part of the profile (undefined until it has loaded); re-renders only when that part changes. */
export function useProfilePart<T>(pick: (me: MeUser) => T): T | undefined {
  // tRPC widens `select`'s result for streamed outputs; users.me answers plain JSON.
  return trpc.users.me.useQuery(undefined, { select: pick }).data as T | undefined;
}

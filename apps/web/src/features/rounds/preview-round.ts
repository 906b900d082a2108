import type { CandidateOption, Gender, RoundResponse } from "@quad/contracts";
import { apiUrl, fetchWithTimeout } from "../../lib/http";

/**
 * The landing preview's one call, GET /api/prompts/unauthenticated, with
 * plain fetch: the first page carries neither the data layer (TanStack
 * Query + tRPC) nor zod, so the answer is checked structurally here.
 */
export async function fetchPreviewRound(gender: Gender, signal?: AbortSignal): Promise<RoundResponse> {
  const url = new URL(apiUrl("/api/prompts/unauthenticated"));
  url.searchParams.set("gender", gender);
  const response = await fetchWithTimeout(url, { headers: { Accept: "application/json" }, signal });
  if (!response.ok) throw new Error(`GET /prompts/unauthenticated answered ${response.status}`);
  const body: unknown = await response.json();
  const parsed = asPromptResponse(body);
  if (!parsed) throw new Error("GET /prompts/unauthenticated answered an unexpected shape");
  return parsed;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isCandidate(value: unknown): value is CandidateOption {
  return (
    isObject(value) &&
    typeof value.id === "string" &&
    typeof value.profileImageUrl === "string" &&
    typeof value.firstName === "string" &&
    typeof value.graduationYear === "number" &&
    isStringList(value.organizations) &&
    isStringList(value.interests)
  );
}

/** The answer as a RoundResponse, or null when it is not one. */
export function asPromptResponse(value: unknown): RoundResponse | null {
  if (!isObject(value)) return null;
  if (typeof value.error === "string") {
    return typeof value.message === "string" ? (value as RoundResponse) : null;
  }
  const { prompt, users } = value;
  if (
    !isObject(prompt) ||
    typeof prompt.id !== "number" ||
    typeof prompt.prompt !== "string" ||
    !Array.isArray(users) ||
    users.length !== 2 ||
    !users.every(isCandidate)
  ) {
    return null;
  }
  // Only what a card shows is passed on.
  return {
    prompt: { id: prompt.id, prompt: prompt.prompt, skipDisabled: prompt.skipDisabled === true },
    users: [publicFields(users[0] as CandidateOption), publicFields(users[1] as CandidateOption)],
  };
}

function publicFields({
  id,
  profileImageUrl,
  firstName,
  graduationYear,
  organizations,
  interests,
}: CandidateOption): CandidateOption {
  return { id, profileImageUrl, firstName, graduationYear, organizations, interests };
}

import { describe, expect, it } from "vitest";
import { INBOX_PAGE_SIZE } from "./constants";
import { RoundResponse, isRoundError, OpenRoundQuery, VoteInput, PreviewRoundInput } from "./rounds";
import { type HttpMethod, routeList, routes, streamRouteList } from "./routes";
import { LOCKED_CARD_PHOTO, UnlockResult, VoteCard, VoteCardLocked, InboxPageInput, InboxPage } from "./inbox";
import { expectValid } from "./test-helpers";

describe("route table", () => {
  it("has a unique method + path for every route", () => {
    const keys = routeList.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("has paths that start with / and procedures named by their rows' keys", () => {
    for (const r of routeList) {
      expect(r.path.startsWith("/"), r.path).toBe(true);
      expect(r.path.startsWith("/api"), `${r.path} is below /api already`).toBe(false);
      expect(routes).toHaveProperty([r.procedure]);
    }
  });

  it("serves every row with a method and path as REST, and only those (the moderators' are tRPC only)", () => {
    const rest = Object.entries(routes).filter(([, r]) => "path" in r);
    const served = [...routeList, ...streamRouteList];
    expect(served.map((r) => r.procedure).sort()).toEqual(rest.map(([name]) => name).sort());
    // Streams answer text/event-stream, apart from the routes that answer once.
    expect(streamRouteList.map((r) => r.procedure)).toEqual(["live.events"]);
    expect(routeList.filter((r) => r.stream)).toEqual([]);
    expect(Object.keys(routes).filter((name) => !served.some((r) => r.procedure === name))).toEqual([
      "rounds.skip",
      "admin.reviewQueue",
      "admin.auditTrail",
      "admin.restore",
      "admin.removeProfile",
      "admin.removePhoto",
    ]);
    for (const [name, r] of Object.entries(routes)) {
      expect("method" in r, name).toBe("path" in r);
      if (r.auth === "moderator") expect("path" in r, name).toBe(false);
    }
  });

  // The REST routes, with whether each call needs a session (docs/architecture.md "One contract, two protocols").
  it.each<[method: HttpMethod, path: string, auth: boolean]>([
    ["GET", "/users/me", true],
    ["PATCH", "/users/update", true],
    ["GET", "/schools", false],
    ["POST", "/payments/create-payment-intent", true],
    ["GET", "/prompts/unauthenticated", false],
    ["GET", "/prompts/random", true],
    ["POST", "/votes/store", true],
    ["GET", "/votes/for-user", true],
    ["POST", "/unlocks/unlock-user", true],
    // docs/product.md "Signing up and signing in" and "Prices"
    ["POST", "/auth/send-code", false],
    ["POST", "/auth/verify-code", false],
    ["POST", "/auth/refresh", false],
    ["POST", "/auth/logout", false],
    ["POST", "/payments/local/confirm", true],
    ["GET", "/dev/sms-outbox", false],
  ])("%s %s is present with auth=%j", (method, path, auth) => {
    const found = routeList.filter((r) => r.method === method && r.path === path);
    expect(found).toHaveLength(1);
    expect(found[0]?.auth).toBe(auth);
  });

  it("switches GET /prompts/random?skip=true to rounds.skip, a tRPC-only row with the same output and auth", () => {
    const open = routes["rounds.open"];
    const target = routes[open.restSwitch.to as keyof typeof routes];
    expect(open.restSwitch.to).toBe("rounds.skip");
    expect("path" in target).toBe(false);
    expect(target.output).toBe(open.output);
    expect(target.auth).toBe(open.auth);
    expect(open.restSwitch.query.safeParse({ skip: "true" }).data).toEqual({ skip: true });
  });

  it("every payments route needs a session", () => {
    for (const r of routeList.filter((r) => r.path.startsWith("/payments/"))) expect(r.auth, r.path).toBe(true);
  });

  it("marks only the dev outboxes as development-only", () => {
    expect(routeList.filter((r) => "devOnly" in r && r.devOnly).map((r) => r.path)).toEqual([
      "/dev/sms-outbox",
      "/dev/email-outbox",
    ]);
  });

  it("sends the profile update as multipart", () => {
    expect(routes["users.update"].multipart).toBe(true);
  });
});

describe("OpenRoundQuery (GET /prompts/random?skip=)", () => {
  it.each<[input: unknown, skip: boolean]>([
    [{ skip: "true" }, true],
    [{ skip: "false" }, false],
    [{ skip: true }, true],
    [{ skip: false }, false],
    [{}, false],
  ])("%j → skip %j", (input, skip) => {
    expect(expectValid(OpenRoundQuery, input)).toEqual({ skip });
  });

  it.each<[unknown]>([[{ skip: "maybe" }], [{ skip: "1" }], [{ skip: "" }], [{ skip: "true", extra: 1 }]])(
    "rejects %j",
    (input) => {
      expect(OpenRoundQuery.safeParse(input).success).toBe(false);
    },
  );
});

describe("PreviewRoundInput (GET /prompts/unauthenticated?gender=)", () => {
  it.each([["male"], ["female"]])("accepts %s", (gender) => {
    expect(expectValid(PreviewRoundInput, { gender })).toEqual({ gender });
  });
  it.each<[unknown]>([[{ gender: "robot" }], [{ gender: "" }], [{}], [{ gender: "MALE" }]])("rejects %j", (input) => {
    const result = PreviewRoundInput.safeParse(input);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]?.message).toBe("gender must be male or female");
  });
});

const U1 = "3f2b8c1e-6d4a-4f0e-9b7a-2c5d8e1f0a9b";

describe("VoteInput (POST /votes/store)", () => {
  it.each<[unknown, unknown]>([
    [
      { userId: U1, promptId: 3 },
      { userId: U1, promptId: 3 },
    ],
    [
      { userId: U1, promptId: "3" },
      { userId: U1, promptId: 3 },
    ],
    [
      { userId: U1, promptId: 3, preference: "female" },
      { userId: U1, promptId: 3, preference: "female" },
    ],
  ])("accepts %j", (input, expected) => {
    expect(expectValid(VoteInput, input)).toEqual(expected);
  });
  it.each<[unknown]>([
    [{ userId: "", promptId: 3 }],
    [{ userId: "u1", promptId: 3 }],
    [{ userId: U1 }],
    [{ userId: U1, promptId: 0 }],
    [{ userId: U1, promptId: "abc" }],
    [{ userId: U1, promptId: 2147483648 }],
    [{ userId: U1, promptId: "2147483648" }],
    [{ userId: U1, promptId: 3, preference: "robot" }],
    [{ userId: U1, promptId: 3, voterId: "me" }],
  ])("rejects %j", (input) => {
    expect(VoteInput.safeParse(input).success).toBe(false);
  });
});

describe("InboxPageInput (GET /votes/for-user?page=&limit=)", () => {
  it.each<[input: unknown, expected: unknown]>([
    [{}, { page: 1, limit: INBOX_PAGE_SIZE }],
    [{}, { page: 1, limit: 10 }],
    [{ page: "2" }, { page: 2, limit: 10 }],
    [
      { page: "3", limit: "5" },
      { page: 3, limit: 5 },
    ],
    [{ limit: 50 }, { page: 1, limit: 50 }],
    [{ cursor: "abc" }, { page: 1, limit: 10, cursor: "abc" }],
  ])("%j → %j", (input, expected) => {
    expect(expectValid(InboxPageInput, input)).toEqual(expected);
  });

  it.each<[unknown]>([
    [{ limit: 51 }],
    [{ limit: "51" }],
    [{ limit: 0 }],
    [{ page: 0 }],
    [{ page: -1 }],
    [{ page: "abc" }],
    [{ page: 1.5 }],
    [{ page: 1, userId: "someone-else" }],
  ])("rejects %j", (input) => {
    expect(InboxPageInput.safeParse(input).success).toBe(false);
  });
});

describe("VoteCard: a locked card carries nothing that identifies the voter", () => {
  const base = {
    id: "vote-1",
    photo: LOCKED_CARD_PHOTO,
    prompt: "Most likely to start a company",
    createdAt: "2025-04-08T12:00:00.000Z",
  };
  const locked = { ...base, isUnlocked: false };
  const unlocked = {
    ...base,
    isUnlocked: true,
    name: "Sam",
    graduationYear: 2026,
    instagramHandle: "@sam",
    emojis: ["🔥"],
  };

  it("the locked shape has no identifying field at all", () => {
    const keys = Object.keys(VoteCardLocked.shape);
    expect(keys.sort()).toEqual(["createdAt", "id", "isUnlocked", "photo", "prompt"]);
    for (const field of ["name", "voterId", "graduationYear", "instagramHandle", "emojis", "userId"]) {
      expect(keys).not.toContain(field);
    }
  });

  it.each<[label: string, photo: string]>([
    ["a media URL", "/api/media/teasers/vote-1.jpg"],
    ["another data URI", "data:image/jpeg;base64,/9j/4AAQ"],
  ])("refuses a locked card whose photo is %s: only the shared placeholder passes", (_label, photo) => {
    expect(VoteCard.safeParse({ ...locked, photo }).success).toBe(false);
  });

  it("parses locked and unlocked cards", () => {
    expect(expectValid(VoteCard, locked)).toEqual(locked);
    expect(expectValid(VoteCard, unlocked)).toEqual(unlocked);
  });

  // zod objects strip unknown keys by default, so parsing locked output drops
  // them. This is a safety net for output validation only: the server must
  // still never put a voter's name or id into a locked card in the first place.
  it.each<[extra: Record<string, unknown>]>([
    [{ name: "Sam" }],
    [{ voterId: "user-42" }],
    [{ name: "Sam", voterId: "user-42", graduationYear: 2026, instagramHandle: "@sam", emojis: ["🔥"] }],
  ])("strips %j from a locked card", (extra) => {
    const parsed = expectValid(VoteCard, { ...locked, ...extra });
    expect(parsed).toEqual(locked);
    for (const key of Object.keys(extra)) expect(parsed).not.toHaveProperty(key);
  });

  it("strips identifying keys from locked cards inside a votes page too", () => {
    const page = expectValid(InboxPage, {
      votes: [{ ...locked, name: "Sam", voterId: "u42" }, unlocked],
      hasMore: false,
      nextCursor: null,
    });
    expect(page.votes[0]).toEqual(locked);
    expect(page.votes[0]).not.toHaveProperty("name");
    expect(page.votes[0]).not.toHaveProperty("voterId");
    expect(page.votes[1]).toEqual(unlocked);
  });

  it.each<[label: string, input: unknown]>([
    [
      "an unlocked card without a name",
      { ...base, isUnlocked: true, graduationYear: 2026, instagramHandle: null, emojis: [] },
    ],
    ["a card without isUnlocked", base],
    ["isUnlocked as text", { ...base, isUnlocked: "false" }],
  ])("rejects %s", (_label, input) => {
    expect(VoteCard.safeParse(input).success).toBe(false);
  });

  it("an unlock answer must carry an unlocked card", () => {
    expect(UnlockResult.safeParse({ unlockedUser: unlocked, remainingUnlocks: 2 }).success).toBe(true);
    expect(UnlockResult.safeParse({ unlockedUser: locked, remainingUnlocks: 2 }).success).toBe(false);
    expect(UnlockResult.safeParse({ unlockedUser: unlocked, remainingUnlocks: -1 }).success).toBe(false);
  });
});

describe("RoundResponse: a round or an error value", () => {
  const candidate = {
    id: "c1",
    profileImageUrl: "/a.jpg",
    firstName: "Ann",
    graduationYear: 2026,
    organizations: [],
    interests: [],
  };
  it("tells a round from an error", () => {
    const round = expectValid(RoundResponse, {
      prompt: { id: 1, prompt: "Most likely to start a company", skipDisabled: false },
      users: [candidate, { ...candidate, id: "c2" }],
    });
    expect(isRoundError(round)).toBe(false);
    const error = expectValid(RoundResponse, {
      error: "no_candidates",
      message: "No students found, check back later.",
    });
    expect(isRoundError(error)).toBe(true);
  });
  it("needs exactly two candidates", () => {
    const prompt = { id: 1, prompt: "p", skipDisabled: false };
    expect(RoundResponse.safeParse({ prompt, users: [candidate] }).success).toBe(false);
    expect(RoundResponse.safeParse({ prompt, users: [candidate, candidate, candidate] }).success).toBe(false);
  });
});

import { createTestDatabase } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endSession, rotateSession, SESSION_MESSAGES, startSession, type RevokingSessionDeps } from "./sessions";
import { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS, verifyAccessToken } from "./tokens";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let clock = Date.parse("2026-03-01T12:00:00Z");
let deps: RevokingSessionDeps;
const heard: string[] = [];
const phone = "+15550001111";

beforeAll(async () => {
  database = await createTestDatabase();
  deps = {
    db: database.db,
    now: () => new Date(clock),
    secret: "secret-secret-secret-secret-secret",
    revocations: { heard: (ids) => void heard.push(...ids) },
  };
});
afterAll(() => database?.close());

const refused = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: "UNAUTHORIZED", message: SESSION_MESSAGES.expired });
};

describe("sessions", () => {
  it("issues a short-lived access token for the phone", async () => {
    const tokens = await startSession(deps, phone);
    const claims = await verifyAccessToken(deps.secret, tokens.token, new Date(clock));
    expect(claims?.phone).toBe(phone);
    expect(Date.parse(tokens.expiresAt) - clock).toBe(ACCESS_TOKEN_TTL_MS);
    expect(await verifyAccessToken(deps.secret, tokens.token, new Date(clock + ACCESS_TOKEN_TTL_MS + 1000))).toBeNull();
    expect(await verifyAccessToken("another-secret-another-secret-xx", tokens.token, new Date(clock))).toBeNull();
  });

  it("rotates: the new pair works, the old refresh token does not", async () => {
    const first = await startSession(deps, phone);
    const second = await rotateSession(deps, first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const third = await rotateSession(deps, second.refreshToken);
    expect(await verifyAccessToken(deps.secret, third.token, new Date(clock))).toMatchObject({ phone });
  });

  it("revokes the whole family when a rotated token is reused", async () => {
    const first = await startSession(deps, phone);
    const second = await rotateSession(deps, first.refreshToken);
    await refused(rotateSession(deps, first.refreshToken));
    // The thief's reuse also ends the legitimate successor.
    await refused(rotateSession(deps, second.refreshToken));
    // And the family's access tokens, announced to this process at once.
    const family = (await verifyAccessToken(deps.secret, second.token, new Date(clock)))?.familyId;
    expect(family).toBeDefined();
    expect(heard).toContain(family);
  });

  it("lets only one of two concurrent rotations of the same token through", async () => {
    const first = await startSession(deps, phone);
    const results = await Promise.allSettled([
      rotateSession(deps, first.refreshToken),
      rotateSession(deps, first.refreshToken),
    ]);
    expect(results.filter((r) => r.status === "fulfilled").length).toBeLessThanOrEqual(1);
  });

  it("refuses unknown and expired refresh tokens", async () => {
    await refused(rotateSession(deps, "not-a-token"));
    const tokens = await startSession(deps, phone);
    clock += REFRESH_TOKEN_TTL_MS;
    await refused(rotateSession(deps, tokens.refreshToken));
  });

  it("logout revokes the family and is idempotent", async () => {
    const tokens = await startSession(deps, phone);
    const rotated = await rotateSession(deps, tokens.refreshToken);
    heard.length = 0;
    await endSession(deps, rotated.refreshToken);
    await refused(rotateSession(deps, rotated.refreshToken));
    expect(heard).toContain((await verifyAccessToken(deps.secret, tokens.token, new Date(clock)))?.familyId);
    await endSession(deps, rotated.refreshToken);
    await endSession(deps, "unknown");
  });
});

import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { AuthTokens } from "@quad/contracts";
import type { Database } from "@quad/db";
import { authSessions } from "@quad/db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../../errors";
import { recordRevocations, type SessionRevocations } from "./revocations";
import { REFRESH_TOKEN_TTL_MS, signAccessToken } from "./tokens";
import { product } from "../../metrics/registry";

export interface SessionDeps {
  db: Database;
  now: () => Date;
  secret: string;
}

/** Rotation and logout may sign a family out: this process must refuse its tokens at once. */
export interface RevokingSessionDeps extends SessionDeps {
  revocations: Pick<SessionRevocations, "heard">;
}

export const SESSION_MESSAGES = {
  expired: "Your session has expired. Please log in again.",
} as const;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newRefreshToken = () => randomBytes(32).toString("base64url");

async function tokensFor(
  deps: SessionDeps,
  claims: { phone: string; sessionId: string; familyId: string },
  refreshToken: string,
): Promise<AuthTokens> {
  const access = await signAccessToken(deps.secret, claims, deps.now());
  return { token: access.token, refreshToken, expiresAt: access.expiresAt.toISOString() };
}

/** Starts a session family for a phone that proved it holds the number. */
export async function startSession(deps: SessionDeps, phone: string): Promise<AuthTokens> {
  const refreshToken = newRefreshToken();
  const now = deps.now();
  const familyId = randomUUID();
  const [row] = await deps.db
    .insert(authSessions)
    .values({
      phone,
      familyId,
      tokenHash: hashToken(refreshToken),
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    })
    .returning({ id: authSessions.id });
  product.signIns.inc();
  return tokensFor(deps, { phone, sessionId: row!.id, familyId }, refreshToken);
}

type RotateOutcome =
  | { kind: "rotated"; phone: string; sessionId: string; familyId: string; refreshToken: string }
  | { kind: "refused"; revokedFamily?: string };

/**
 * Trades a refresh token for a new pair. A token works once: presenting one
 * that was already rotated or revoked means it leaked, so its whole family is
 * revoked, access tokens included (the revocation commits even though the
 * caller gets a 401). The rotated row is marked revoked too, but that signs
 * no one out: the family's tokens, the new one included, keep working.
 */
export async function rotateSession(deps: RevokingSessionDeps, refreshToken: string): Promise<AuthTokens> {
  const now = deps.now();
  const outcome = await deps.db.transaction(async (tx): Promise<RotateOutcome> => {
    const [current] = await tx
      .select()
      .from(authSessions)
      .where(eq(authSessions.tokenHash, hashToken(refreshToken)))
      .for("update");
    if (!current) return { kind: "refused" };
    if (current.revokedAt || current.replacedBy) {
      await tx
        .update(authSessions)
        .set({ revokedAt: now })
        .where(and(eq(authSessions.familyId, current.familyId), isNull(authSessions.revokedAt)));
      await recordRevocations(tx, [current.familyId], now);
      return { kind: "refused", revokedFamily: current.familyId };
    }
    if (current.expiresAt <= now) return { kind: "refused" };
    const nextToken = newRefreshToken();
    const [next] = await tx
      .insert(authSessions)
      .values({
        phone: current.phone,
        familyId: current.familyId,
        tokenHash: hashToken(nextToken),
        createdAt: now,
        expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      })
      .returning({ id: authSessions.id });
    await tx.update(authSessions).set({ revokedAt: now, replacedBy: next!.id }).where(eq(authSessions.id, current.id));
    return {
      kind: "rotated",
      phone: current.phone,
      sessionId: next!.id,
      familyId: current.familyId,
      refreshToken: nextToken,
    };
  });
  if (outcome.kind === "refused") {
    if (outcome.revokedFamily) deps.revocations.heard([outcome.revokedFamily]);
    throw new AppError("UNAUTHORIZED", SESSION_MESSAGES.expired);
  }
  return tokensFor(deps, outcome, outcome.refreshToken);
}

/**
 * Revokes the family the token belongs to, its access tokens included, in
 * every process. Unknown tokens are fine: logging out twice is not an error.
 */
export async function endSession(deps: RevokingSessionDeps, refreshToken: string): Promise<void> {
  const now = deps.now();
  const familyId = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ familyId: authSessions.familyId })
      .from(authSessions)
      .where(eq(authSessions.tokenHash, hashToken(refreshToken)));
    if (!current) return null;
    await tx
      .update(authSessions)
      .set({ revokedAt: now })
      .where(and(eq(authSessions.familyId, current.familyId), isNull(authSessions.revokedAt)));
    await recordRevocations(tx, [current.familyId], now);
    return current.familyId;
  });
  if (familyId) deps.revocations.heard([familyId]);
}

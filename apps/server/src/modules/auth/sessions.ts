import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { AuthTokens } from "@quad/contracts";
import type { Database } from "@quad/db";
import { authSessions } from "@quad/db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../../errors";
import { REFRESH_TOKEN_TTL_MS, signAccessToken } from "./tokens";

export interface SessionDeps {
  db: Database;
  now: () => Date;
  secret: string;
}

export const SESSION_MESSAGES = {
  expired: "Your session has expired. Please log in again.",
} as const;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newRefreshToken = () => randomBytes(32).toString("base64url");

async function tokensFor(deps: SessionDeps, phone: string, sessionId: string, refreshToken: string): Promise<AuthTokens> {
  const access = await signAccessToken(deps.secret, { phone, sessionId }, deps.now());
  return { token: access.token, refreshToken, expiresAt: access.expiresAt.toISOString() };
}

/** Starts a session family for a phone that proved it holds the number. */
export async function startSession(deps: SessionDeps, phone: string): Promise<AuthTokens> {
  const refreshToken = newRefreshToken();
  const now = deps.now();
  const [row] = await deps.db
    .insert(authSessions)
    .values({
      phone,
      familyId: randomUUID(),
      tokenHash: hashToken(refreshToken),
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    })
    .returning({ id: authSessions.id });
  return tokensFor(deps, phone, row!.id, refreshToken);
}

type RotateOutcome = { kind: "rotated"; phone: string; sessionId: string; refreshToken: string } | { kind: "refused" };

/**
 * Trades a refresh token for a new pair. A token works once: presenting one
 * that was already rotated or revoked means it leaked, so its whole family is
 * revoked (the revocation commits even though the caller gets a 401).
 */
export async function rotateSession(deps: SessionDeps, refreshToken: string): Promise<AuthTokens> {
  const now = deps.now();
  const outcome = await deps.db.transaction(async (tx): Promise<RotateOutcome> => {
    const [current] = await tx.select().from(authSessions).where(eq(authSessions.tokenHash, hashToken(refreshToken))).for("update");
    if (!current) return { kind: "refused" };
    if (current.revokedAt || current.replacedBy) {
      await tx
        .update(authSessions)
        .set({ revokedAt: now })
        .where(and(eq(authSessions.familyId, current.familyId), isNull(authSessions.revokedAt)));
      return { kind: "refused" };
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
    return { kind: "rotated", phone: current.phone, sessionId: next!.id, refreshToken: nextToken };
  });
  if (outcome.kind === "refused") throw new AppError("UNAUTHORIZED", SESSION_MESSAGES.expired);
  return tokensFor(deps, outcome.phone, outcome.sessionId, outcome.refreshToken);
}

/** Revokes the family the token belongs to. Unknown tokens are fine: logging out twice is not an error. */
export async function endSession(deps: SessionDeps, refreshToken: string): Promise<void> {
  const [current] = await deps.db
    .select({ familyId: authSessions.familyId })
    .from(authSessions)
    .where(eq(authSessions.tokenHash, hashToken(refreshToken)));
  if (!current) return;
  await deps.db
    .update(authSessions)
    .set({ revokedAt: deps.now() })
    .where(and(eq(authSessions.familyId, current.familyId), isNull(authSessions.revokedAt)));
}

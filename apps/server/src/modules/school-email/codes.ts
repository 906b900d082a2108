import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import {
  ERROR_MESSAGES,
  SCHOOL_EMAIL_CODE,
  SCHOOL_EMAIL_MESSAGES,
  matchingSchoolDomain,
  schoolAddressRefusal,
} from "@quad/contracts";
import { isUniqueViolation, type Database, type Transaction } from "@quad/db";
import { schoolEmailCodes, schools, users } from "@quad/db/schema";
import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import { AppError } from "../../errors";
import type { CandidatePool } from "../rounds/candidate-pool";
import { eligibilityChanged } from "../rounds/eligibility";
import { lockLiftsAt } from "../auth/codes";
import { schoolDomainsSql } from "../schools/service";
import type { EmailSender } from "./email-sender";
import { canonicalMailbox, mailboxAliases } from "./mailbox";

export interface SchoolEmailDeps {
  db: Database;
  candidatePool: CandidatePool;
  email: EmailSender;
  now: () => Date;
  /** Keys the code hashes, so a leaked table does not reveal codes. */
  secret: string;
  /** Replaceable in tests; six random digits otherwise. */
  generateCode?: () => string;
}

const HOUR_MS = 60 * 60 * 1000;
const sixDigits = () => String(randomInt(0, 10 ** SCHOOL_EMAIL_CODE.digits)).padStart(SCHOOL_EMAIL_CODE.digits, "0");
const hashCode = (secret: string, userId: string, address: string, code: string) =>
  createHmac("sha256", secret).update(`school-email:${userId}:${address}:${code}`).digest("hex");
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const fieldError = (code: "BAD_REQUEST" | "CONFLICT", message: string) =>
  new AppError(code, message, { fieldErrors: { email: [message] } });

interface Student {
  id: string;
  schoolId: number;
  schoolName: string;
  /** The school's domains, its main one first. */
  domains: string[];
  /** The school's main domain, lower case: mailboxes are named at it. */
  mainDomain: string;
}

/** The student and their school's domains; refused without a school. */
async function studentOf(db: Database | Transaction, phone: string): Promise<Student> {
  const [row] = await db
    .select({
      id: users.id,
      schoolId: users.schoolId,
      schoolName: schools.name,
      domains: schoolDomainsSql(),
      mainDomain: sql<string | null>`lower(${schools.domain})`,
    })
    .from(users)
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(eq(users.phone, phone));
  if (!row) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  if (row.schoolId === null || row.schoolName === null)
    throw new AppError("BAD_REQUEST", SCHOOL_EMAIL_MESSAGES.noSchool);
  return {
    id: row.id,
    schoolId: row.schoolId,
    schoolName: row.schoolName,
    domains: row.domains,
    mainDomain: row.mainDomain ?? row.domains[0] ?? "",
  };
}

/** The school domain the address proves (one the school lists, never an alumni one), or a refusal saying why. */
function domainFor(student: Student, address: string): string {
  const domain = matchingSchoolDomain(address, student.domains);
  if (!domain)
    throw fieldError(
      "BAD_REQUEST",
      schoolAddressRefusal(address, student.schoolName, student.domains) ?? SCHOOL_EMAIL_MESSAGES.invalid,
    );
  return domain;
}

/** Sends and checks of one student, and sends to one address, take turns in every server process. */
async function lock(tx: Transaction, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"school-email:" + key}))`);
}

/** When the student's checks may resume after a day's wrong codes, or null. Counted as sign-in codes count them. */
async function lockedUntil(tx: Transaction, userId: string, now: Date): Promise<Date | null> {
  const rows = await tx
    .select({
      createdAt: schoolEmailCodes.createdAt,
      failures: sql<number>`(${schoolEmailCodes.attempts} - case when ${schoolEmailCodes.consumedAt} is null then 0 else 1 end)::int`,
    })
    .from(schoolEmailCodes)
    .where(
      and(
        eq(schoolEmailCodes.userId, userId),
        gt(schoolEmailCodes.createdAt, new Date(now.getTime() - SCHOOL_EMAIL_CODE.windowMs)),
      ),
    )
    .orderBy(asc(schoolEmailCodes.createdAt));
  return lockLiftsAt(rows, SCHOOL_EMAIL_CODE.maxFailuresPerDay, SCHOOL_EMAIL_CODE.windowMs);
}

function lockedOut(until: Date, now: Date): AppError {
  const wait = seconds(until.getTime() - now.getTime());
  return new AppError("TOO_MANY_REQUESTS", SCHOOL_EMAIL_MESSAGES.lockedOut(Math.ceil(wait / 3600)), {
    retryAfterSeconds: wait,
  });
}

/**
 * E-mails a code to a school address of the student's school. It says
 * nothing about whether the address already belongs to someone: only the
 * person who reads that inbox learns it, when they enter the code. Under the
 * student's lock and then the mailbox's: not while the student is locked
 * after wrong codes, one per 30 s and SCHOOL_EMAIL_CODE.maxSendsPerStudentPerDay
 * a day per student. A mailbox (the address and its aliases) gets
 * maxSendsPerAddressPerStudentPerHour an hour from each student, so classmates
 * spend their own share and never its owner's. Once more than
 * maxRequestersPerAddressPerHour students asked for it in the hour, a student
 * holding a live code for it gets no other: asking with none, as its owner
 * does, always gets one, so no number of classmates keeps her out, and they
 * cannot fill her inbox with resends.
 */
export async function sendSchoolEmailCode(
  deps: SchoolEmailDeps,
  phone: string,
  address: string,
): Promise<{ retryAfterSeconds: number }> {
  const student = await studentOf(deps.db, phone);
  domainFor(student, address);
  const aliases = mailboxAliases(address, student.domains);
  const code = (deps.generateCode ?? sixDigits)();
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await lock(tx, student.id);
    await lock(tx, canonicalMailbox(address, student.mainDomain));
    const locked = await lockedUntil(tx, student.id, now);
    if (locked) throw lockedOut(locked, now);
    const mine = await tx
      .select({ createdAt: schoolEmailCodes.createdAt })
      .from(schoolEmailCodes)
      .where(
        and(
          eq(schoolEmailCodes.userId, student.id),
          gt(schoolEmailCodes.createdAt, new Date(now.getTime() - SCHOOL_EMAIL_CODE.windowMs)),
        ),
      )
      .orderBy(desc(schoolEmailCodes.createdAt));
    const latest = mine[0]?.createdAt;
    if (latest && now.getTime() - latest.getTime() < SCHOOL_EMAIL_CODE.resendIntervalMs) {
      const wait = seconds(SCHOOL_EMAIL_CODE.resendIntervalMs - (now.getTime() - latest.getTime()));
      throw new AppError("TOO_MANY_REQUESTS", SCHOOL_EMAIL_MESSAGES.tooSoon(wait), { retryAfterSeconds: wait });
    }
    if (mine.length >= SCHOOL_EMAIL_CODE.maxSendsPerStudentPerDay) {
      const oldest = mine[mine.length - 1]!.createdAt;
      throw new AppError("TOO_MANY_REQUESTS", SCHOOL_EMAIL_MESSAGES.tooManyForStudent, {
        retryAfterSeconds: seconds(oldest.getTime() + SCHOOL_EMAIL_CODE.windowMs - now.getTime()),
      });
    }
    const toMailbox = await tx
      .select({
        createdAt: schoolEmailCodes.createdAt,
        userId: schoolEmailCodes.userId,
        expiresAt: schoolEmailCodes.expiresAt,
        consumedAt: schoolEmailCodes.consumedAt,
        attempts: schoolEmailCodes.attempts,
      })
      .from(schoolEmailCodes)
      .where(
        and(
          inArray(schoolEmailCodes.address, aliases),
          gt(schoolEmailCodes.createdAt, new Date(now.getTime() - HOUR_MS)),
        ),
      )
      .orderBy(asc(schoolEmailCodes.createdAt));
    const fromMe = toMailbox.filter((row) => row.userId === student.id);
    if (fromMe.length >= SCHOOL_EMAIL_CODE.maxSendsPerAddressPerStudentPerHour)
      throw new AppError("TOO_MANY_REQUESTS", SCHOOL_EMAIL_MESSAGES.tooManyForAddressFromYou, {
        retryAfterSeconds: seconds(fromMe[0]!.createdAt.getTime() + HOUR_MS - now.getTime()),
      });
    const requesters = new Set([...toMailbox.map((row) => row.userId), student.id]);
    const live = fromMe.filter(
      (row) => !row.consumedAt && row.expiresAt > now && row.attempts < SCHOOL_EMAIL_CODE.maxAttempts,
    );
    const liveUntil = Math.max(0, ...live.map((row) => row.expiresAt.getTime()));
    if (requesters.size > SCHOOL_EMAIL_CODE.maxRequestersPerAddressPerHour && liveUntil > now.getTime()) {
      const wait = seconds(liveUntil - now.getTime());
      throw new AppError("TOO_MANY_REQUESTS", SCHOOL_EMAIL_MESSAGES.tooManyForAddress(Math.ceil(wait / 60)), {
        retryAfterSeconds: wait,
      });
    }
    await tx.insert(schoolEmailCodes).values({
      userId: student.id,
      address,
      codeHash: hashCode(deps.secret, student.id, address, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SCHOOL_EMAIL_CODE.ttlMs),
    });
  });
  try {
    await deps.email.send({
      userId: student.id,
      to: address,
      subject: `${code} is your Quad code`,
      text:
        `${code} is your code to verify your ${student.schoolName} e-mail on Quad. It expires in 10 minutes.\n\n` +
        `If you didn't ask for it, ignore this e-mail: without the code nobody can use your address.`,
    });
  } catch {
    // The provider's error may quote the address; the outbox row keeps it, the answer does not.
    throw new AppError("SERVICE_UNAVAILABLE", SCHOOL_EMAIL_MESSAGES.sendFailed, { retryAfterSeconds: 60 });
  }
  return { retryAfterSeconds: SCHOOL_EMAIL_CODE.resendIntervalMs / 1000 };
}

/**
 * Checks a code against the student's latest live code for that address,
 * under the student's lock; each check spends one of the code's attempts,
 * committed whatever the outcome. A match makes the address the student's
 * proof of membership of their current school (the address is checked again
 * against it: the school may have changed since the code was sent). One
 * mailbox proves one account, whichever of the school's domains it is typed
 * with: proofs are serialised per mailbox, and the unique constraint on the
 * canonical mailbox stands behind that.
 * Answers the school the student is now a member of.
 */
export async function verifySchoolEmail(
  deps: SchoolEmailDeps,
  phone: string,
  address: string,
  code: string,
): Promise<{ schoolId: number }> {
  const now = deps.now();
  const outcome = await deps.db.transaction(async (tx): Promise<AppError | { schoolId: number }> => {
    const student = await studentOf(tx, phone);
    await lock(tx, student.id);
    const locked = await lockedUntil(tx, student.id, now);
    if (locked) return lockedOut(locked, now);
    const [latest] = await tx
      .select()
      .from(schoolEmailCodes)
      .where(
        and(
          eq(schoolEmailCodes.userId, student.id),
          eq(schoolEmailCodes.address, address),
          isNull(schoolEmailCodes.consumedAt),
        ),
      )
      .orderBy(desc(schoolEmailCodes.createdAt))
      .limit(1);
    if (!latest) return new AppError("BAD_REQUEST", SCHOOL_EMAIL_MESSAGES.noCode);
    if (latest.expiresAt <= now) return new AppError("BAD_REQUEST", SCHOOL_EMAIL_MESSAGES.expired);
    const [attempt] = await tx
      .update(schoolEmailCodes)
      .set({ attempts: sql`${schoolEmailCodes.attempts} + 1` })
      .where(
        and(
          eq(schoolEmailCodes.id, latest.id),
          isNull(schoolEmailCodes.consumedAt),
          lt(schoolEmailCodes.attempts, SCHOOL_EMAIL_CODE.maxAttempts),
        ),
      )
      .returning({ attempts: schoolEmailCodes.attempts });
    if (!attempt) return new AppError("BAD_REQUEST", SCHOOL_EMAIL_MESSAGES.tooManyAttempts);

    const expected = Buffer.from(latest.codeHash, "hex");
    const given = Buffer.from(hashCode(deps.secret, student.id, address, code), "hex");
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      const nowLocked = await lockedUntil(tx, student.id, now);
      if (nowLocked) return lockedOut(nowLocked, now);
      return new AppError(
        "BAD_REQUEST",
        attempt.attempts >= SCHOOL_EMAIL_CODE.maxAttempts
          ? SCHOOL_EMAIL_MESSAGES.tooManyAttempts
          : SCHOOL_EMAIL_MESSAGES.invalidCode,
      );
    }
    await tx.update(schoolEmailCodes).set({ consumedAt: now }).where(eq(schoolEmailCodes.id, latest.id));
    let domain: string;
    try {
      domain = domainFor(student, address);
    } catch (error) {
      return error as AppError;
    }
    const mailbox = canonicalMailbox(address, student.mainDomain);
    await lock(tx, mailbox);
    const [other] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.schoolEmailCanonical, mailbox), ne(users.id, student.id)));
    if (other) return fieldError("CONFLICT", SCHOOL_EMAIL_MESSAGES.taken);
    const [proved] = await tx
      .update(users)
      .set({
        schoolEmail: address,
        schoolEmailCanonical: mailbox,
        schoolEmailDomain: domain,
        schoolVerifiedAt: now,
        updatedAt: now,
      })
      .where(and(eq(users.id, student.id), eq(users.schoolId, student.schoolId)))
      .returning({ id: users.id });
    // The student moved to another school meanwhile: this address proves nothing there.
    if (!proved)
      return fieldError("CONFLICT", SCHOOL_EMAIL_MESSAGES.notSchool(student.schoolName, student.domains[0] ?? ""));
    return { schoolId: student.schoolId };
  });
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}

/** verifySchoolEmail, with a concurrent proof of the same mailbox by another account answered as "taken". */
export async function proveSchoolEmail(
  deps: SchoolEmailDeps,
  phone: string,
  address: string,
  code: string,
): Promise<{ schoolId: number }> {
  try {
    const proven = await verifySchoolEmail(deps, phone, address, code);
    // The student may be drawn now.
    eligibilityChanged(deps.candidatePool, proven.schoolId);
    return proven;
  } catch (error) {
    if (
      isUniqueViolation(error, "users_school_email_unique") ||
      isUniqueViolation(error, "users_school_email_canonical_unique")
    )
      throw fieldError("CONFLICT", SCHOOL_EMAIL_MESSAGES.taken);
    throw error;
  }
}

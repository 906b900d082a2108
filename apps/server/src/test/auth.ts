import type { ApiErrorBody, AuthTokens } from "@quad/contracts";
import type { FastifyInstance } from "fastify";
import { emailedCode } from "./school-email";

/** Reads the latest code the outbox "sent" to a phone, as a person reads their phone. */
export async function latestCode(app: FastifyInstance, phone: string): Promise<string> {
  const res = await app.inject({ method: "GET", url: `/api/dev/sms-outbox?phone=${encodeURIComponent(phone)}` });
  const body = res.json() as { messages: { body: string }[] };
  const match = body.messages[0]?.body.match(/\b(\d{6})\b/);
  if (!match) throw new Error(`no code in the outbox for ${phone}`);
  return match[1]!;
}

/**
 * Signs a phone in through the real HTTP flow and answers its tokens. A phone with no account is
 * refused without the sign-up's consents; it then signs up, the same code sent again with both, as
 * the sign-up form sends them.
 */
export async function signIn(app: FastifyInstance, phone: string, ip = "10.0.0.1"): Promise<AuthTokens> {
  const sent = await app.inject({ method: "POST", url: "/api/auth/send-code", payload: { phone }, remoteAddress: ip });
  if (sent.statusCode !== 200) throw new Error(`send-code ${sent.statusCode}: ${sent.body}`);
  const { codeRequestId } = sent.json() as { codeRequestId: string };
  const code = await latestCode(app, phone);
  const check = (consents?: object) =>
    app.inject({
      method: "POST",
      url: "/api/auth/verify-code",
      payload: { phone, code, codeRequestId, ...(consents ? { consents } : {}) },
      remoteAddress: ip,
    });
  let verified = await check();
  if (verified.statusCode === 400 && (verified.json() as ApiErrorBody).fieldErrors?.["consents.sms"])
    verified = await check(SIGNUP_CONSENTS);
  if (verified.statusCode !== 200) throw new Error(`verify-code ${verified.statusCode}: ${verified.body}`);
  return verified.json() as AuthTokens;
}

/** Both boxes of the sign-up's phone step. */
export const SIGNUP_CONSENTS = { sms: true, terms: true } as const;

export const bearer = (tokens: { token: string }) => ({ authorization: `Bearer ${tokens.token}` });

let counter = 0;
/**
 * A unique valid US number per call (the server refuses numbers outside the
 * US numbering plan): area code 202, an exchange per test process, then a counter.
 */
export function testPhone(): string {
  counter += 1;
  return `+1202${200 + (process.pid % 800)}${String(counter).padStart(4, "0")}`;
}

/** Proves a school address through the real HTTP flow, reading the code from the development e-mail outbox. */
export async function proveSchoolEmail(
  app: FastifyInstance,
  headers: Record<string, string>,
  email: string,
  ip = "10.0.0.1",
): Promise<void> {
  const sent = await app.inject({
    method: "POST",
    url: "/api/users/school-email/send-code",
    headers,
    payload: { email },
    remoteAddress: ip,
  });
  if (sent.statusCode !== 200) throw new Error(`school-email send-code ${sent.statusCode}: ${sent.body}`);
  const code = await emailedCode(app, email);
  const verified = await app.inject({
    method: "POST",
    url: "/api/users/school-email/verify",
    headers,
    payload: { email, code },
    remoteAddress: ip,
  });
  if (verified.statusCode !== 200) throw new Error(`school-email verify ${verified.statusCode}: ${verified.body}`);
}

/** Asks for a sign-in code from `ip`, over REST or tRPC. */
export const sendCodeFrom = (app: FastifyInstance, rest: boolean, phone: string, ip: string) =>
  app.inject({
    method: "POST",
    url: rest ? "/api/auth/send-code" : "/api/trpc/auth.sendCode",
    payload: { phone },
    remoteAddress: ip,
  });

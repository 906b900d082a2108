import type { FastifyInstance } from "fastify";

/** Which surface a request goes through: every school e-mail attack runs over both. */
export type Via = "rest" | "trpc";
export const VIAS: Via[] = ["rest", "trpc"];
type Headers = Record<string, string>;

/** The newest code the development outbox "e-mailed" to an address, as only that inbox's reader sees it. */
export async function emailedCode(app: FastifyInstance, address: string): Promise<string> {
  const res = await app.inject({ method: "GET", url: `/api/dev/email-outbox?to=${encodeURIComponent(address)}` });
  const match = (res.json() as { messages: { body: string }[] }).messages[0]?.body.match(/\b(\d{6})\b/);
  if (!match) throw new Error(`no code e-mailed to ${address}`);
  return match[1]!;
}

/**
 * Requests of the school e-mail tests against the app `app()` answers (the
 * test app is made in beforeAll): `call` goes over REST or tRPC and answers
 * the status, the error message and field errors if any, and the data.
 */
export function schoolEmailRequests(app: () => FastifyInstance) {
  async function call(
    via: Via,
    method: "GET" | "POST",
    rest: string,
    procedure: string,
    headers: Headers,
    input?: object,
  ) {
    const query = input
      ? new URLSearchParams(Object.entries(input).map(([k, v]): [string, string] => [k, String(v)])).toString()
      : "";
    const url =
      via === "rest"
        ? method === "GET" && query
          ? `${rest}?${query}`
          : rest
        : method === "GET" && input
          ? `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`
          : `/api/trpc/${procedure}`;
    const res = await app().inject({ method, url, headers, ...(method === "POST" ? { payload: input ?? {} } : {}) });
    const body = res.json();
    const error = via === "rest" ? body : body.error;
    return {
      status: res.statusCode,
      message: (res.statusCode >= 400 ? error.message : undefined) as string | undefined,
      fieldErrors: (via === "rest" ? error?.fieldErrors : error?.data?.fieldErrors) as
        Record<string, string[]> | undefined,
      data: via === "rest" ? body : body.result?.data,
      raw: res.body,
    };
  }

  return {
    call,
    sendCode: (via: Via, headers: Headers, email: string) =>
      call(via, "POST", "/api/users/school-email/send-code", "schoolEmail.sendCode", headers, { email }),
    verify: (via: Via, headers: Headers, email: string, code: string) =>
      call(via, "POST", "/api/users/school-email/verify", "schoolEmail.verify", headers, { email, code }),
    codeIn: (address: string) => emailedCode(app(), address),
  };
}

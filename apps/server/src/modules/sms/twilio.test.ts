import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { smsOutbox } from "@quad/db/schema";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { consentTo } from "../../test/sms";
import { smsConsentState } from "../consents/service";
import { sendQueuedMessages } from "./queue";
import { createSmsSender, SmsDeliveryError } from "./sender";
import { createTwilioProvider, twilioSignature, verifyTwilioSignature } from "./twilio";

// Twilio is unreachable here: the provider is pointed at this in-process fake
// of the one call it makes, which records each request and answers as told.
interface Recorded {
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}
let fake: FastifyInstance;
let baseUrl: string;
let requests: Recorded[] = [];
let answer: { status: number; body: unknown; delayMs?: number } = { status: 201, body: {} };

beforeAll(async () => {
  fake = Fastify();
  fake.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  fake.post("/2010-04-01/Accounts/:sid/Messages.json", async (request, reply) => {
    requests.push({
      url: request.url,
      authorization: request.headers.authorization,
      contentType: request.headers["content-type"],
      form: request.body as Record<string, string>,
    });
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    return reply.code(answer.status).send(answer.body);
  });
  await fake.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
});
afterAll(() => fake?.close());
beforeEach(() => {
  requests = [];
  answer = { status: 201, body: { sid: "SM0123456789abcdef0123456789abcdef", status: "queued" } };
});

const SID = "AC00000000000000000000000000000001";
const provider = (overrides: Partial<Parameters<typeof createTwilioProvider>[0]> = {}) =>
  createTwilioProvider({
    accountSid: SID,
    authToken: "auth-token",
    from: "+15005550006",
    statusCallbackUrl: "https://quad.example/api/sms/status",
    baseUrl,
    ...overrides,
  });

async function failure(promise: Promise<unknown>): Promise<SmsDeliveryError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmsDeliveryError);
  return error as SmsDeliveryError;
}

describe("the Twilio provider", () => {
  it("creates a Message with basic auth and a form body naming To, From, Body and the status callback", async () => {
    const result = await provider().deliver({ to: "+15555550123", body: "You got 3 new votes on Quad!" });
    expect(result).toEqual({ providerMessageId: "SM0123456789abcdef0123456789abcdef" });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request!.authorization).toBe(`Basic ${Buffer.from(`${SID}:auth-token`).toString("base64")}`);
    expect(request!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request!.form).toEqual({
      To: "+15555550123",
      From: "+15005550006",
      Body: "You got 3 new votes on Quad!",
      StatusCallback: "https://quad.example/api/sms/status",
    });
  });

  it("sends through a Messaging Service when TWILIO_FROM is its SID", async () => {
    await provider({ from: "MG11111111111111111111111111111111" }).deliver({ to: "+15555550123", body: "hi" });
    expect(requests[0]!.form).toMatchObject({ MessagingServiceSid: "MG11111111111111111111111111111111" });
    expect(requests[0]!.form).not.toHaveProperty("From");
  });

  it("reports a 4xx as a permanent failure carrying Twilio's code and message", async () => {
    answer = {
      status: 400,
      body: { code: 21211, message: "The 'To' number +15555550123 is not a valid phone number.", status: 400 },
    };
    const error = await failure(provider().deliver({ to: "+15555550123", body: "hi" }));
    expect(error.message).toBe("Twilio 400: 21211 The 'To' number +15555550123 is not a valid phone number.");
    expect({ retryable: error.retryable, outcomeUnknown: error.outcomeUnknown }).toEqual({
      retryable: false,
      outcomeUnknown: false,
    });
  });

  it.each([429, 503])("reports %i (rejected before processing) as retryable", async (status) => {
    answer = { status, body: { code: 20429, message: "Too Many Requests" } };
    const error = await failure(provider().deliver({ to: "+15555550123", body: "hi" }));
    expect({ retryable: error.retryable, outcomeUnknown: error.outcomeUnknown }).toEqual({
      retryable: true,
      outcomeUnknown: false,
    });
  });

  it("reports a 500 as an unknown outcome (it may have been accepted), never retryable", async () => {
    answer = { status: 500, body: "<html>oops</html>" };
    const error = await failure(provider().deliver({ to: "+15555550123", body: "hi" }));
    expect(error.message).toMatch(/^Twilio 500/);
    expect({ retryable: error.retryable, outcomeUnknown: error.outcomeUnknown }).toEqual({
      retryable: false,
      outcomeUnknown: true,
    });
  });

  it("reports a timeout as an unknown outcome", async () => {
    answer = { status: 201, body: { sid: "SMlate" }, delayMs: 300 };
    const error = await failure(provider({ timeoutMs: 50 }).deliver({ to: "+15555550123", body: "hi" }));
    expect(error.message).toMatch(/timed out/);
    expect(error.outcomeUnknown).toBe(true);
  });

  it("reports a refused connection (nothing was sent) as retryable", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const error = await failure(
      provider({ baseUrl: `http://127.0.0.1:${closedPort}` }).deliver({ to: "+15555550123", body: "hi" }),
    );
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect({ retryable: error.retryable, outcomeUnknown: error.outcomeUnknown }).toEqual({
      retryable: true,
      outcomeUnknown: false,
    });
  });
});

describe("the Twilio provider behind the sender and the queue", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());
  const now = () => new Date("2026-03-03T18:00:00Z");
  const rowsTo = (phone: string) => database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));

  it("stores Twilio's message SID on the sent row", async () => {
    await createSmsSender(database.db, provider(), now).send({
      to: "+15555550111",
      body: "123456 is your code",
      kind: "code",
    });
    expect(await rowsTo("+15555550111")).toMatchObject([
      { status: "sent", providerMessageId: "SM0123456789abcdef0123456789abcdef" },
    ]);
  });

  it("stores Twilio's error on a refused code", async () => {
    answer = { status: 400, body: { code: 21211, message: "Invalid 'To' Phone Number", status: 400 } };
    await expect(
      createSmsSender(database.db, provider(), now).send({ to: "+15555550112", body: "123456", kind: "code" }),
    ).rejects.toThrow(SmsDeliveryError);
    expect(await rowsTo("+15555550112")).toMatchObject([
      { status: "failed", lastError: "Twilio 400: 21211 Invalid 'To' Phone Number" },
    ]);
  });

  it("puts a queued notice back, with the error, when Twilio is overloaded", async () => {
    await consentTo(database.db, "+15555550113", now());
    await database.db.insert(smsOutbox).values({
      toPhone: "+15555550113",
      body: "You got 2 new votes on Quad!",
      kind: "notification",
      createdAt: now(),
    });
    answer = { status: 503, body: { code: 20503, message: "Service Unavailable" } };
    await sendQueuedMessages({ db: database.db, provider: provider(), now });
    expect(await rowsTo("+15555550113")).toMatchObject([
      { status: "queued", attempts: 1, lastError: "Twilio 503: 20503 Service Unavailable" },
    ]);
    expect(requests).toHaveLength(1);
  });
});

describe("a number the carrier has opted out (Twilio 21610)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());
  const now = () => new Date("2026-03-03T18:00:00Z");
  const phone = "+15555550114";
  const queueNotice = () =>
    database.db
      .insert(smsOutbox)
      .values({ toPhone: phone, body: "You got 1 new vote on Quad!", kind: "notification", createdAt: now() });

  it("is recorded as opted out, so nothing more is sent to it", async () => {
    await consentTo(database.db, phone, now());
    await queueNotice();
    answer = { status: 400, body: { code: 21610, message: "Attempt to send to unsubscribed recipient", status: 400 } };
    await sendQueuedMessages({ db: database.db, provider: provider(), now });
    expect(requests).toHaveLength(1);
    expect((await smsConsentState(database.db, phone)).optedOutBySms).toBe(true);

    answer = { status: 201, body: { sid: "SM0123456789abcdef0123456789abcdef", status: "queued" } };
    await queueNotice();
    const report = await sendQueuedMessages({ db: database.db, provider: provider(), now });
    expect(report.suppressed).toBe(1);
    expect(requests).toHaveLength(1);
  });
});

describe("Twilio request signatures", () => {
  // The example of Twilio's security documentation.
  const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
  const params: [string, string][] = [
    ["CallSid", "CA1234567890ABCDE"],
    ["Caller", "+12349013030"],
    ["Digits", "1234"],
    ["From", "+12349013030"],
    ["To", "+18005551212"],
  ];

  it("matches Twilio's documented example", () => {
    expect(twilioSignature("12345", url, params)).toBe("0/KCTR6DLpKmkAf8muzZqo1nDgQ=");
    expect(twilioSignature("12345", url, [...params].reverse())).toBe("0/KCTR6DLpKmkAf8muzZqo1nDgQ=");
  });

  it("refuses a missing, wrong or differently keyed signature, or changed parameters or URL", () => {
    const good = twilioSignature("12345", url, params);
    expect(verifyTwilioSignature("12345", good, url, params)).toBe(true);
    expect(verifyTwilioSignature("12345", undefined, url, params)).toBe(false);
    expect(verifyTwilioSignature("12345", "", url, params)).toBe(false);
    expect(verifyTwilioSignature("54321", good, url, params)).toBe(false);
    expect(verifyTwilioSignature("12345", good, url, [...params, ["Body", "STOP"]])).toBe(false);
    expect(verifyTwilioSignature("12345", good, "https://mycompany.com/myapp.php", params)).toBe(false);
  });
});

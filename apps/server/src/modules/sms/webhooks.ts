import { CONTROL_CHARACTERS, E164FormatSchema, SMS_REPLIES, VALIDATION } from "@quad/contracts";
import type { Database } from "@quad/db";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../env";
import { httpErrorBody } from "../../http/error-body";
import { recordSmsKeywordConsent } from "../consents/service";
import { smsKeywordOf } from "./keywords";
import { publicUrlOf } from "./public-url";
import { applyDeliveryStatus } from "./queue";
import { verifyTwilioSignature } from "./twilio";

export const SMS_INBOUND_PATH = "/api/sms/inbound";
export const SMS_STATUS_PATH = "/api/sms/status";
/** Twilio's webhook bodies are a few hundred bytes. */
const FORM_BODY_LIMIT = 64 * 1024;

export interface SmsWebhookOptions {
  db: Database;
  config: Pick<Config, "PUBLIC_URL" | "TWILIO_AUTH_TOKEN" | "devRoutesEnabled">;
  now: () => Date;
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/** The reply goes back in the webhook's answer (TwiML), not through the outbound queue. */
export function twiml(message: string | null): string {
  const inner = message === null ? "" : `<Message>${escapeXml(message)}</Message>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${inner}</Response>`;
}

/**
 * Twilio's webhooks (form-encoded, signed with X-Twilio-Signature):
 * - POST /api/sms/inbound: texts to our number. STOP and its synonyms opt
 *   out, START and UNSTOP opt back in, HELP answers help text; the answer is
 *   TwiML. Anything else gets an empty answer.
 * - POST /api/sms/status: delivery status of a message we sent.
 * A request whose signature does not match TWILIO_AUTH_TOKEN and the public
 * URL gets 403. Without a token (SMS_PROVIDER=outbox) unsigned requests are
 * accepted only where the development routes are served, so the flow can be
 * tried locally; elsewhere every request is refused.
 */
export async function registerSmsWebhooks(app: FastifyInstance, opts: SmsWebhookOptions): Promise<void> {
  const { db, config, now } = opts;

  const authentic = (request: FastifyRequest, params: URLSearchParams): boolean => {
    const token = config.TWILIO_AUTH_TOKEN;
    if (!token) return config.devRoutesEnabled;
    const signature = request.headers["x-twilio-signature"];
    // Twilio signs the URL it called, query string included.
    const url = publicUrlOf(config.PUBLIC_URL, request.url);
    return verifyTwilioSignature(token, typeof signature === "string" ? signature : undefined, url, params.entries());
  };

  /**
   * The form's parameters, or null after answering 403 (not signed) or 400 (a
   * control character, as every procedure refuses: Postgres stores no NUL).
   */
  const verifiedParams = (request: FastifyRequest, reply: FastifyReply): URLSearchParams | null => {
    const params = new URLSearchParams(typeof request.body === "string" ? request.body : "");
    if (typeof request.body !== "string" || !authentic(request, params)) {
      reply.code(403).send(httpErrorBody(403, "Invalid Twilio signature"));
      return null;
    }
    for (const [name, value] of params) {
      if (CONTROL_CHARACTERS.test(name) || CONTROL_CHARACTERS.test(value)) {
        reply.code(400).send(httpErrorBody(400, VALIDATION.controlCharacters));
        return null;
      }
    }
    return params;
  };

  await app.register(async (scope) => {
    // Keep the raw form: the signature covers its parameters exactly as sent.
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    scope.post(SMS_INBOUND_PATH, async (request, reply) => {
      const params = verifiedParams(request, reply);
      if (!params) return reply;
      const answer = (message: string | null) => reply.type("text/xml").send(twiml(message));

      const keyword = smsKeywordOf(params.get("Body") ?? "");
      const from = E164FormatSchema.safeParse(params.get("From") ?? "");
      if (!keyword || !from.success) return answer(null);
      const phone = from.data;

      switch (keyword.kind) {
        case "optOut": {
          const { changed } = await recordSmsKeywordConsent(db, phone, keyword.word, false, now());
          request.log.info({ keyword: keyword.word, changed }, "sms opt-out");
          // One confirmation: a repeated STOP is not answered again.
          return answer(changed ? SMS_REPLIES.optedOut : null);
        }
        case "optIn":
          await recordSmsKeywordConsent(db, phone, keyword.word, true, now());
          request.log.info({ keyword: keyword.word }, "sms opt-in");
          return answer(SMS_REPLIES.optedIn);
        case "help":
          // Answered even to an opted-out number: the person asked, as with a sign-in code.
          return answer(SMS_REPLIES.help);
      }
    });

    scope.post(SMS_STATUS_PATH, async (request, reply) => {
      const params = verifiedParams(request, reply);
      if (!params) return reply;
      const providerMessageId = params.get("MessageSid") ?? params.get("SmsSid");
      const status = params.get("MessageStatus") ?? params.get("SmsStatus");
      if (providerMessageId && status) {
        await applyDeliveryStatus(db, { providerMessageId, status, errorCode: params.get("ErrorCode") });
      }
      return reply.code(204).send();
    });
  });
}

import { SMS_HELP_KEYWORDS, SMS_OPT_IN_KEYWORDS, SMS_OPT_OUT_KEYWORDS } from "@quad/contracts";

export type SmsKeyword =
  | { kind: "optOut"; word: (typeof SMS_OPT_OUT_KEYWORDS)[number] }
  | { kind: "optIn"; word: (typeof SMS_OPT_IN_KEYWORDS)[number] }
  | { kind: "help"; word: (typeof SMS_HELP_KEYWORDS)[number] };

const includes = <T extends string>(list: readonly T[], word: string): word is T =>
  (list as readonly string[]).includes(word);

/**
 * The keyword an inbound text is, if it is one: the whole message, in any
 * case, with surrounding spaces and trailing punctuation ignored ("stop",
 * " Stop. "). A sentence that merely contains STOP is not a keyword, as with
 * the carriers' own handling.
 */
export function smsKeywordOf(body: string): SmsKeyword | null {
  const word = body
    .trim()
    .replace(/[.!?]+$/u, "")
    .trim()
    .toUpperCase();
  if (includes(SMS_OPT_OUT_KEYWORDS, word)) return { kind: "optOut", word };
  if (includes(SMS_OPT_IN_KEYWORDS, word)) return { kind: "optIn", word };
  if (includes(SMS_HELP_KEYWORDS, word)) return { kind: "help", word };
  return null;
}

import { PHONE_COUNTRY_CODE, PHONE_DIGITS } from "./constants";

/** Only the digits of what was typed. */
export function phoneDigits(input: string): string {
  return input.replace(/\D/g, "");
}

/**
 * Formats what a person types as "(555) 555-5555", growing as they type.
 * A leading country code 1 on an 11-digit entry is dropped (US only).
 */
export function formatPhoneInput(input: string): string {
  let digits = phoneDigits(input);
  if (digits.length > PHONE_DIGITS && digits.startsWith("1")) digits = digits.slice(1);
  digits = digits.slice(0, PHONE_DIGITS);
  if (digits.length === 0) return "";
  if (digits.length <= 3) return `(${digits}`;
  if (digits.length <= 6) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** "(202) 555-0123" → "+12025550123" (docs/product.md: +1 followed by the digits). */
export function toE164(input: string): string {
  return `${PHONE_COUNTRY_CODE}${phoneDigits(input).slice(-PHONE_DIGITS)}`;
}

/** "+12025550123" → "(202) 555-0123", for showing a stored number back. */
export function formatE164(e164: string): string {
  return formatPhoneInput(e164.replace(/^\+1/, ""));
}

/** Shows a number in logs and admin views without revealing it. */
export function maskPhone(e164: string): string {
  return e164.length > 4 ? `${"*".repeat(e164.length - 4)}${e164.slice(-4)}` : "****";
}

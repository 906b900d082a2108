/**
 * Card-field helpers for the local payment provider's form: formatting as
 * people type, and the checks a real card form makes before submitting.
 */

export const CARD_NUMBER_MAX_DIGITS = 19;

export function digitsOf(text: string): string {
  return text.replace(/\D/g, "");
}

/** "4242424242424242" → "4242 4242 4242 4242". */
export function formatCardNumber(text: string): string {
  const digits = digitsOf(text).slice(0, CARD_NUMBER_MAX_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "1228" → "12 / 28"; a lone first digit above 1 becomes "0X". */
export function formatExpiry(text: string): string {
  let digits = digitsOf(text).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

export function formatCvc(text: string): string {
  return digitsOf(text).slice(0, 4);
}

export type CardBrand = "Visa" | "Mastercard" | "Amex" | "Discover" | null;

export function cardBrandOf(number: string): CardBrand {
  const digits = digitsOf(number);
  if (/^4/.test(digits)) return "Visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "Mastercard";
  if (/^3[47]/.test(digits)) return "Amex";
  if (/^6(011|5)/.test(digits)) return "Discover";
  return null;
}

/** The Luhn checksum every card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardErrors = Partial<Record<keyof CardFields, string>>;

export const CARD_MESSAGES = {
  numberIncomplete: "Your card number is incomplete.",
  numberInvalid: "Your card number is invalid.",
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryPast: "Your card's expiration date is in the past.",
  expiryInvalid: "Your card's expiration month is invalid.",
  cvcIncomplete: "Your card's security code is incomplete.",
} as const;

export function validateCard(fields: CardFields, now: Date): CardErrors {
  const errors: CardErrors = {};
  const number = digitsOf(fields.number);
  if (number.length < 13) errors.number = CARD_MESSAGES.numberIncomplete;
  else if (!passesLuhn(number)) errors.number = CARD_MESSAGES.numberInvalid;

  const expiry = digitsOf(fields.expiry);
  if (expiry.length < 4) {
    errors.expiry = CARD_MESSAGES.expiryIncomplete;
  } else {
    const month = Number(expiry.slice(0, 2));
    const year = 2000 + Number(expiry.slice(2, 4));
    if (month < 1 || month > 12) errors.expiry = CARD_MESSAGES.expiryInvalid;
    else if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) {
      errors.expiry = CARD_MESSAGES.expiryPast;
    }
  }

  const cvcLength = cardBrandOf(number) === "Amex" ? 4 : 3;
  if (digitsOf(fields.cvc).length < cvcLength) errors.cvc = CARD_MESSAGES.cvcIncomplete;
  return errors;
}

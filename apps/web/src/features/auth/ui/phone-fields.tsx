import { AUTH_CODE, formatPhoneInput } from "@quad/contracts";
import type { Ref } from "react";
import { TextField } from "./fields";

export interface PhoneFieldProps {
  value: string;
  /** Receives the number formatted as "(555) 555-5555". */
  onChange: (formatted: string) => void;
  onBlur?: () => void;
  error?: string | null;
  disabled?: boolean;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** "Phone number": US only, formatted while typing (docs/product.md "Signing up and signing in"). */
export function PhoneField({ value, onChange, onBlur, error, disabled, hint, inputRef }: PhoneFieldProps) {
  return (
    <TextField
      ref={inputRef}
      label="Phone number"
      name="phone"
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      placeholder="(555) 555-5555"
      prefix="+1"
      value={value}
      onChange={(event) => onChange(formatPhoneInput(event.target.value))}
      onBlur={onBlur}
      error={error}
      disabled={disabled}
      hint={hint}
    />
  );
}

export interface CodeFieldProps {
  value: string;
  onChange: (digits: string) => void;
  error?: string | null;
  disabled?: boolean;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** The code's digits in what was typed or pasted ("Your code: 123 456" gives "123456"). */
export function codeDigits(text: string): string {
  return text.replace(/\D/g, "").slice(0, AUTH_CODE.digits);
}

/**
 * "Verification code": the six digits from the text; phones offer to fill it
 * from the SMS. No maxLength: a pasted "123 456" would be cut to "123 45"
 * before the digits are picked out of it.
 */
export function CodeField({ value, onChange, error, disabled, hint, inputRef }: CodeFieldProps) {
  return (
    <TextField
      ref={inputRef}
      label="Verification code"
      name="code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      placeholder="••••••"
      variant="code"
      value={value}
      onChange={(event) => onChange(codeDigits(event.target.value))}
      error={error}
      disabled={disabled}
      hint={hint}
    />
  );
}

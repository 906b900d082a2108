import { ADMIN_ACTIONS, GENDERS, PURCHASE_STATUSES, REPORT_REASONS } from "@quad/contracts";
import { pgEnum } from "drizzle-orm/pg-core";

export const USER_ROLES = ["student", "admin"] as const;
export const ROUND_STATUSES = ["open", "voted", "skipped", "closed"] as const;
export const PURCHASE_KINDS = ["unlock", "boost"] as const;
export const PAYMENT_PROVIDERS = ["local", "stripe"] as const;
export const SMS_KINDS = ["code", "notification", "system"] as const;
/**
 * queued → sending (claimed by one sender) → sent → delivered (the carrier's
 * receipt), or failed. A message left "sending" by a crash is never retried:
 * its outcome is unknown, and a text must never go out twice.
 */
export const SMS_STATUSES = ["queued", "sending", "sent", "delivered", "failed"] as const;
export const CONSENT_KINDS = ["sms", "terms"] as const;
// Report reasons, admin actions and purchase statuses are the contracts' lists: one definition for both sides.
export { ADMIN_ACTIONS, PURCHASE_STATUSES, REPORT_REASONS };

/** One Postgres type for both users.gender and users.preference. */
export const genderEnum = pgEnum("gender", GENDERS);
export const userRoleEnum = pgEnum("user_role", USER_ROLES);
export const roundStatusEnum = pgEnum("round_status", ROUND_STATUSES);
export const purchaseKindEnum = pgEnum("purchase_kind", PURCHASE_KINDS);
export const paymentProviderEnum = pgEnum("payment_provider", PAYMENT_PROVIDERS);
export const purchaseStatusEnum = pgEnum("purchase_status", PURCHASE_STATUSES);
export const smsKindEnum = pgEnum("sms_kind", SMS_KINDS);
export const smsStatusEnum = pgEnum("sms_status", SMS_STATUSES);
export const consentKindEnum = pgEnum("consent_kind", CONSENT_KINDS);
export const reportReasonEnum = pgEnum("report_reason", REPORT_REASONS);
export const adminActionEnum = pgEnum("admin_action", ADMIN_ACTIONS);

export type UserRole = (typeof USER_ROLES)[number];
export type RoundStatus = (typeof ROUND_STATUSES)[number];
export type PurchaseKind = (typeof PURCHASE_KINDS)[number];
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];
export type SmsKind = (typeof SMS_KINDS)[number];
export type SmsStatus = (typeof SMS_STATUSES)[number];
export type ConsentKind = (typeof CONSENT_KINDS)[number];
export type ReportReason = (typeof REPORT_REASONS)[number];

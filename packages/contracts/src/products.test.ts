import { describe, expect, it } from "vitest";
import {
  API_TIMEOUT_MS,
  BACKGROUND_JOB_INTERVAL_MS,
  BOOST_TICK_MS,
  BOOST_WEIGHT,
  CANDIDATES_PER_ROUND,
  CROP,
  FORMATTED_PHONE_LENGTH,
  GENDERS,
  INSTAGRAM_MAX_LENGTH,
  PHONE_COUNTRY_CODE,
  PHONE_DIGITS,
  POLICY_EFFECTIVE_DATE,
  POLICY_UPDATED_DATE,
  SESSION_RESTORE_TIMEOUT_MS,
  SESSION_STORAGE_KEY,
  SKIPS_IN_A_ROW,
  SMS_HELP_KEYWORDS,
  SMS_OPT_OUT_KEYWORDS,
  VOTE_COOLDOWN_MS,
  INBOX_PAGE_SIZE,
  VOTES_PER_BATCH,
} from "./constants";
import { ACADEMIC_YEAR_TURN, CLASS_YEARS_OFFERED } from "./class-years";
import { BoostOption, CreatePaymentIntentInput, UnlockPackage } from "./payments";
import {
  BOOST_OPTIONS,
  FLASH_SALE_PACKAGE_ID,
  findProduct,
  formatPrice,
  percentOff,
  priceFor,
  PRODUCT_IDS,
  ProductIdSchema,
  UNLOCK_PACKAGES,
} from "./products";

describe("business constants (docs/product.md, docs/architecture.md)", () => {
  it.each<[name: string, actual: unknown, expected: unknown]>([
    ["API timeout", API_TIMEOUT_MS, 100000],
    ["session restore timeout", SESSION_RESTORE_TIMEOUT_MS, 5000],
    ["session storage key", SESSION_STORAGE_KEY, "user"],
    ["Instagram max length", INSTAGRAM_MAX_LENGTH, 30],
    ["phone digits", PHONE_DIGITS, 10],
    ["phone country code", PHONE_COUNTRY_CODE, "+1"],
    ["formatted phone length", FORMATTED_PHONE_LENGTH, "(555) 555-5555".length],
    ["class years offered", CLASS_YEARS_OFFERED, 4],
    ["the academic year turns on 1 July", ACADEMIC_YEAR_TURN, { month: 6, day: 1 }],
    ["genders", GENDERS, ["male", "female"]],
    ["crop", CROP, { aspectRatio: 3 / 4, minZoom: 1, maxZoom: 3, zoomStep: 0.1, previewHeightPx: 450 }],
    ["votes page size", INBOX_PAGE_SIZE, 10],
    ["candidates per round", CANDIDATES_PER_ROUND, 2],
    ["votes come back after one hour", VOTE_COOLDOWN_MS, 60 * 60 * 1000],
    ["background job every 10 minutes", BACKGROUND_JOB_INTERVAL_MS, 600000],
    ["boost timer tick every 60 seconds", BOOST_TICK_MS, 60000],
    ["vote allowance", VOTES_PER_BATCH, 12],
    ["skips in a row", SKIPS_IN_A_ROW, 3],
    ["boost weight (5x more people)", BOOST_WEIGHT, 5],
    ["policy effective date", POLICY_EFFECTIVE_DATE, "March 11, 2025"],
    ["policy updated date", POLICY_UPDATED_DATE, "April 8, 2025"],
  ])("%s", (_name, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it("crop aspect is 3:4", () => {
    expect(CROP.aspectRatio * 4).toBe(3);
  });

  it("SMS keywords include STOP and HELP", () => {
    expect(SMS_OPT_OUT_KEYWORDS).toContain("STOP");
    expect(SMS_HELP_KEYWORDS).toContain("HELP");
  });
});

describe("product catalogue (prices in cents)", () => {
  it("has exactly the three unlock packages", () => {
    expect(UNLOCK_PACKAGES).toEqual([
      { id: "unlock-1", unlocks: 1, priceCents: 99, originalPriceCents: 299, flashSale: true },
      { id: "unlock-3", unlocks: 3, priceCents: 799 },
      { id: "unlock-5", unlocks: 5, priceCents: 999 },
    ]);
  });

  it("has exactly the three boost options", () => {
    expect(BOOST_OPTIONS).toEqual([
      { id: "boost-1", durationDays: 1, priceCents: 499, label: "24 hours" },
      { id: "boost-3", durationDays: 3, priceCents: 899, label: "3 days" },
      { id: "boost-7", durationDays: 7, priceCents: 1299, label: "Superboost" },
    ]);
  });

  it("satisfies its own entity schemas", () => {
    for (const pack of UNLOCK_PACKAGES) expect(UnlockPackage.safeParse(pack).success).toBe(true);
    for (const boost of BOOST_OPTIONS) expect(BoostOption.safeParse(boost).success).toBe(true);
  });

  it("lists every id once", () => {
    expect(PRODUCT_IDS).toEqual(["unlock-1", "unlock-3", "unlock-5", "boost-1", "boost-3", "boost-7"]);
    expect(new Set(PRODUCT_IDS).size).toBe(PRODUCT_IDS.length);
  });

  it("offers unlock-1 as the flash sale, whose original price is the legal text's $2.99", () => {
    expect(FLASH_SALE_PACKAGE_ID).toBe("unlock-1");
    const flash = UNLOCK_PACKAGES.find((p) => p.id === FLASH_SALE_PACKAGE_ID);
    expect(flash && "originalPriceCents" in flash ? formatPrice(flash.originalPriceCents) : undefined).toBe("$2.99");
  });
});

describe("findProduct", () => {
  it.each<[id: string, expected: ReturnType<typeof findProduct>]>([
    ["unlock-1", { kind: "unlock", id: "unlock-1", unlocks: 1, priceCents: 99 }],
    ["unlock-3", { kind: "unlock", id: "unlock-3", unlocks: 3, priceCents: 799 }],
    ["unlock-5", { kind: "unlock", id: "unlock-5", unlocks: 5, priceCents: 999 }],
    ["boost-1", { kind: "boost", id: "boost-1", durationDays: 1, priceCents: 499 }],
    ["boost-3", { kind: "boost", id: "boost-3", durationDays: 3, priceCents: 899 }],
    ["boost-7", { kind: "boost", id: "boost-7", durationDays: 7, priceCents: 1299 }],
    ["unlock-2", undefined],
    ["boost-2", undefined],
    ["UNLOCK-1", undefined],
    ["", undefined],
    ["toString", undefined],
  ])("%j → %j", (id, expected) => {
    expect(findProduct(id)).toEqual(expected);
  });
});

describe("ProductIdSchema and CreatePaymentIntentInput", () => {
  it.each(PRODUCT_IDS.map((id) => [id]))("accepts %s", (id) => {
    expect(ProductIdSchema.parse(id)).toBe(id);
    expect(CreatePaymentIntentInput.parse({ productId: id })).toEqual({ productId: id });
  });

  it.each<[unknown]>([["unlock-2"], ["boost-14"], [""], ["UNLOCK-1"], [undefined], [1]])("rejects %j", (id) => {
    const result = ProductIdSchema.safeParse(id);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]?.message).toBe("Unknown product");
  });

  it("refuses a client-sent price or amount", () => {
    expect(CreatePaymentIntentInput.safeParse({ productId: "unlock-1", priceCents: 1 }).success).toBe(false);
    expect(CreatePaymentIntentInput.safeParse({ productId: "unlock-1", amount: 1 }).success).toBe(false);
  });
});

describe("priceFor: the flash sale ends for real", () => {
  it.each<[id: Parameters<typeof priceFor>[0], active: boolean, cents: number]>([
    ["unlock-1", true, 99],
    ["unlock-1", false, 299],
    ["unlock-3", true, 799],
    ["unlock-3", false, 799],
    ["unlock-5", false, 999],
    ["boost-1", false, 499],
    ["boost-7", true, 1299],
  ])("%s with the sale %s costs %d", (id, active, cents) => {
    expect(priceFor(id, active)).toBe(cents);
  });
});

describe("percentOff and formatPrice", () => {
  it.each<[price: number, original: number, expected: number]>([
    [99, 299, 67],
    [299, 299, 0],
    [150, 300, 50],
  ])("percentOff(%d, %d) = %d", (price, original, expected) => {
    expect(percentOff(price, original)).toBe(expected);
  });

  it.each<[cents: number, expected: string]>([
    [99, "$0.99"],
    [299, "$2.99"],
    [799, "$7.99"],
    [999, "$9.99"],
    [499, "$4.99"],
    [899, "$8.99"],
    [1299, "$12.99"],
    [0, "$0.00"],
    [100, "$1.00"],
  ])("formatPrice(%d) = %j", (cents, expected) => {
    expect(formatPrice(cents)).toBe(expected);
  });

  it("shows the product's dollar prices", () => {
    expect(UNLOCK_PACKAGES.map((p) => formatPrice(p.priceCents))).toEqual(["$0.99", "$7.99", "$9.99"]);
    expect(BOOST_OPTIONS.map((b) => formatPrice(b.priceCents))).toEqual(["$4.99", "$8.99", "$12.99"]);
  });
});

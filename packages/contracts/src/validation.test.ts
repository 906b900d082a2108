import { describe, expect, it } from "vitest";
import { classYearsAt } from "./class-years";
import { VALIDATION } from "./messages";
import { E164PhoneSchema, LoginPhoneSchema, loginFormSchema, SignupPhoneSchema } from "./phone-numbers";
import { ReportInput } from "./safety";
import { canSendSignupCode, SIGNUP_STEPS, SignupFormSchema, signupStepSchemas } from "./signup";
import {
  AcceptPrivacySchema,
  BooleanText,
  CONTROL_CHARACTERS,
  CropPreviewedSchema,
  fieldErrorsOf,
  FirstNameSchema,
  GenderSchema,
  GraduationYearSchema,
  InstagramHandleSchema,
  normalizeInstagramHandle,
  ProfileImageSchema,
  ProfileUpdateSchema,
  UniversitySchema,
  VerificationCodeSchema,
} from "./validation";
import { expectInvalid, expectValid, messagesAt, messagesOf } from "./test-helpers";

/**
 * The input rules (docs/product.md "Signing up and signing in"), row by row.
 * Every table uses the message from messages.ts, and every rule also has one
 * assertion against the literal text of the product (docs/product.md), so
 * changing a message string in messages.ts fails a test.
 */

type Row = [input: unknown, expected: unknown];
type BadRow = [input: unknown, message: string];

// ── Login ────────────────────────────────────────────────────────────────
describe("Login phone: at least 10 characters and a valid US number → 'Invalid phone number'", () => {
  it.each<Row>([
    ["(202) 555-0123", "(202) 555-0123"],
    ["2025550123", "2025550123"],
  ])("accepts %j", (input, expected) => {
    expect(expectValid(LoginPhoneSchema, input)).toBe(expected);
  });

  it.each<BadRow>([
    ["", VALIDATION.loginPhone],
    ["555555555", VALIDATION.loginPhone],
    ["(555) 555", VALIDATION.loginPhone],
    [undefined, VALIDATION.loginPhone],
    [5555555555, VALIDATION.loginPhone],
    // Ten characters are not enough: the number must be one the server texts.
    ["(202) 555-", VALIDATION.loginPhone],
    ["(555) 555-5555", VALIDATION.loginPhone],
    ["(876) 555-1234", VALIDATION.loginPhone], // Jamaica shares +1
    ["(000) 555-1234", VALIDATION.loginPhone],
  ])("rejects %j", (input, message) => expectInvalid(LoginPhoneSchema, input, message));

  it("uses the product's literal message", () => {
    expect(messagesOf(LoginPhoneSchema, "123")).toEqual(["Invalid phone number"]);
  });
});

describe("Login code: required only when the code step is active", () => {
  const phone = "(202) 555-0123";
  const before = loginFormSchema({ codeStepActive: false });
  const during = loginFormSchema({ codeStepActive: true });

  it.each<Row>([
    [{ phone }, "no code before the code step"],
    [{ phone, code: "" }, "empty code before the code step"],
  ])("before the code step accepts %j", (input) => {
    expectValid(before, input);
  });

  it.each<[unknown]>([[{ phone, code: "123456" }], [{ phone, code: " 1 " }]])(
    "during the code step accepts %j",
    (input) => {
      expectValid(during, input);
    },
  );

  it.each<[unknown]>([[{ phone }], [{ phone, code: "" }], [{ phone, code: "   " }]])(
    "during the code step rejects %j on the code field",
    (input) => {
      expect(messagesAt(during, input, "code")).toEqual([VALIDATION.loginCode]);
      expectInvalid(during, input, VALIDATION.loginCode);
    },
  );

  it("still checks the phone in both steps", () => {
    expect(messagesAt(before, { phone: "555" }, "phone")).toEqual([VALIDATION.loginPhone]);
    expect(messagesAt(during, { phone: "555", code: "123456" }, "phone")).toEqual([VALIDATION.loginPhone]);
  });

  it("uses the product's literal message", () => {
    expect(messagesAt(during, { phone, code: "" }, "code")).toEqual(["Please enter the verification code"]);
  });
});

// ── Sign-up fields ───────────────────────────────────────────────────────
describe("First name: at least 2 characters, trimmed → 'First name is required'", () => {
  it.each<Row>([
    ["Jo", "Jo"],
    ["John", "John"],
    ["  Ann  ", "Ann"],
    ["Zoë", "Zoë"],
  ])("accepts %j as %j", (input, expected) => {
    expect(expectValid(FirstNameSchema, input)).toBe(expected);
  });

  it.each<BadRow>([
    ["", VALIDATION.firstName],
    ["J", VALIDATION.firstName],
    [" J ", VALIDATION.firstName],
    ["     ", VALIDATION.firstName],
    [undefined, VALIDATION.firstName],
    [null, VALIDATION.firstName],
    [42, VALIDATION.firstName],
    ["Ann\u0000e", VALIDATION.controlCharacters],
    ["Ann\ne", VALIDATION.controlCharacters],
    ["Ann\u001be", VALIDATION.controlCharacters],
    ["Ann\u0085e", VALIDATION.controlCharacters],
  ])("rejects %j", (input, message) => expectInvalid(FirstNameSchema, input, message));

  it("uses the product's literal message", () => {
    expect(messagesOf(FirstNameSchema, "J")).toEqual(["First name is required"]);
  });
});

describe("University: at least 1, form text accepted → 'Please select a university'", () => {
  it.each<Row>([
    [1, 1],
    [3, 3],
    ["3", 3],
    ["12", 12],
    [2147483647, 2147483647], // the largest id an integer column holds
  ])("accepts %j as %j", (input, expected) => {
    expect(expectValid(UniversitySchema, input)).toBe(expected);
  });

  it.each<BadRow>([
    ["", VALIDATION.university],
    ["0", VALIDATION.university],
    [0, VALIDATION.university],
    [-1, VALIDATION.university],
    ["abc", VALIDATION.university],
    ["1.5", VALIDATION.university],
    [undefined, VALIDATION.university],
    [null, VALIDATION.university],
    // Past the column's range: refused here, never sent to Postgres (which would fail the request).
    [2147483648, VALIDATION.university],
    ["2147483648", VALIDATION.university],
    ["1e400", VALIDATION.university],
    [Number.MAX_SAFE_INTEGER + 2, VALIDATION.university],
  ])("rejects %j", (input, message) => expectInvalid(UniversitySchema, input, message));

  it("uses the product's literal message", () => {
    expect(messagesOf(UniversitySchema, undefined)).toEqual(["Please select a university"]);
  });
});

describe("Graduation year: a year the database holds (2025–2100) → 'Graduation year is required'", () => {
  it.each<Row>([
    [2025, 2025],
    [2029, 2029],
    [2100, 2100],
    ["2025", 2025],
    ["2030", 2030],
  ])("accepts %j as %j", (input, expected) => {
    expect(expectValid(GraduationYearSchema, input)).toBe(expected);
  });

  it.each<BadRow>([
    [2024, VALIDATION.graduationYear],
    [2101, VALIDATION.graduationYear],
    ["2024", VALIDATION.graduationYear],
    ["", VALIDATION.graduationYear],
    ["abc", VALIDATION.graduationYear],
    [2025.5, VALIDATION.graduationYear],
    [undefined, VALIDATION.graduationYear],
    [null, VALIDATION.graduationYear],
  ])("rejects %j", (input, message) => expectInvalid(GraduationYearSchema, input, message));

  it("uses the product's literal message", () => {
    expect(messagesOf(GraduationYearSchema, 2101)).toEqual(["Graduation year is required"]);
  });
});

describe("Gender: male or female → 'Please select your gender'", () => {
  it.each<Row>([
    ["male", "male"],
    ["female", "female"],
  ])("accepts %j", (input, expected) => {
    expect(expectValid(GenderSchema, input)).toBe(expected);
  });

  it.each<BadRow>([
    ["", VALIDATION.gender],
    ["Male", VALIDATION.gender],
    ["other", VALIDATION.gender],
    ["guy", VALIDATION.gender],
    [undefined, VALIDATION.gender],
    [null, VALIDATION.gender],
  ])("rejects %j", (input, message) => expectInvalid(GenderSchema, input, message));

  it("uses the product's literal message", () => {
    expect(messagesOf(GenderSchema, "other")).toEqual(["Please select your gender"]);
  });
});

describe("Instagram handle", () => {
  describe("normalizeInstagramHandle puts exactly one @ in front", () => {
    it.each<Row>([
      ["john", "@john"],
      ["@john", "@john"],
      ["@@john", "@john"],
      ["  john ", "@john"],
      [" @john ", "@john"],
      ["", ""],
      ["   ", ""],
      ["@", ""],
    ])("%j → %j", (input, expected) => {
      expect(normalizeInstagramHandle(input as string)).toBe(expected);
    });
  });

  const handle30 = "a".repeat(30);
  const handle31 = "a".repeat(31);

  it.each<Row>([
    ["john", "@john"],
    ["@john", "@john"],
    ["@@john", "@john"],
    ["  john ", "@john"],
    ["John_Doe.99", "@John_Doe.99"],
    ["j", "@j"],
    ["_._", "@_._"],
    ["0123456789", "@0123456789"],
    [handle30, `@${handle30}`], // 30 characters for the handle itself
    [`@${handle30}`, `@${handle30}`],
  ])("accepts %j as %j", (input, expected) => {
    expect(expectValid(InstagramHandleSchema, input)).toBe(expected);
  });

  it.each<BadRow>([
    // required
    ["", VALIDATION.instagramRequired],
    ["   ", VALIDATION.instagramRequired],
    ["@", VALIDATION.instagramRequired],
    [undefined, VALIDATION.instagramRequired],
    [null, VALIDATION.instagramRequired],
    // at most 30
    [handle31, VALIDATION.instagramTooLong],
    [`@${handle31}`, VALIDATION.instagramTooLong],
    ["a".repeat(60), VALIDATION.instagramTooLong],
    // format
    ["john doe", VALIDATION.instagramFormat],
    ["jo#hn", VALIDATION.instagramFormat],
    ["jöhn", VALIDATION.instagramFormat],
    ["john-doe", VALIDATION.instagramFormat],
    ["jo@hn", VALIDATION.instagramFormat],
    ["@ john", VALIDATION.instagramFormat],
    ["john😀", VALIDATION.instagramFormat],
  ])("rejects %j", (input, message) => expectInvalid(InstagramHandleSchema, input, message));

  it("uses the product's literal messages", () => {
    expect(messagesOf(InstagramHandleSchema, "")).toEqual(["Instagram handle is required"]);
    expect(messagesOf(InstagramHandleSchema, handle31)).toEqual(["Instagram handle cannot exceed 30 characters"]);
    expect(messagesOf(InstagramHandleSchema, "john doe")).toEqual(["Invalid Instagram handle format"]);
  });
});

describe("Sign-up phone: at least 10, exactly 10 digits after stripping", () => {
  it.each<Row>([
    ["(202) 555-0123", "(202) 555-0123"],
    ["2025550123", "2025550123"],
    ["202-555-0123", "202-555-0123"],
  ])("accepts %j", (input, expected) => {
    expect(expectValid(SignupPhoneSchema, input)).toBe(expected);
  });

  it.each<BadRow>([
    ["", VALIDATION.signupPhoneMin],
    ["(555) 555", VALIDATION.signupPhoneMin],
    ["555555", VALIDATION.signupPhoneMin],
    [undefined, VALIDATION.signupPhoneMin],
    // Seven to nine digits are short, however long the formatted text: "at least 10 digits".
    ["(555) 555-5", VALIDATION.signupPhoneMin],
    ["(555) 555-55", VALIDATION.signupPhoneMin],
    ["(555) 555-555", VALIDATION.signupPhoneMin],
    ["55555555555", VALIDATION.signupPhoneExact], // 11 digits
    ["(555) 555-55555", VALIDATION.signupPhoneExact], // 11 digits, formatted
    ["+1 (555) 555-5555", VALIDATION.signupPhoneExact], // the country code is not typed here
    ["abcdefghijkl", VALIDATION.signupPhoneMin],
    // Ten digits that are not a US number the server would text.
    ["(555) 555-5555", VALIDATION.usPhone],
    ["(876) 555-1234", VALIDATION.usPhone],
    ["(268) 555-1234", VALIDATION.usPhone],
    ["(111) 555-1234", VALIDATION.usPhone],
  ])("rejects %j", (input, message) => expectInvalid(SignupPhoneSchema, input, message));

  it("uses the product's literal messages", () => {
    expect(messagesOf(SignupPhoneSchema, "(555) 555")).toEqual(["Phone number must be at least 10 digits"]);
    expect(messagesOf(SignupPhoneSchema, "(555) 555-55")).toEqual(["Phone number must be at least 10 digits"]);
    expect(messagesOf(SignupPhoneSchema, "(555) 555-55555")).toEqual(["Phone number must be exactly 10 digits"]);
  });
});

describe("canSendSignupCode: both consents and the 14-character formatted number", () => {
  const full = "(555) 555-5555";
  it.each<[formattedPhone: string, smsConsent: boolean, termsAccepted: boolean, expected: boolean]>([
    [full, true, true, true],
    [full, false, true, false],
    [full, true, false, false],
    [full, false, false, false],
    ["(555) 555-555", true, true, false],
    ["", true, true, false],
    ["5555555555", true, true, false],
  ])("%j sms=%j terms=%j → %j", (formattedPhone, smsConsent, termsAccepted, expected) => {
    expect(canSendSignupCode({ formattedPhone, smsConsent, termsAccepted })).toBe(expected);
  });
});

describe("Accept privacy: must be true → 'You must accept the terms and conditions'", () => {
  it("accepts true", () => {
    expect(expectValid(AcceptPrivacySchema, true)).toBe(true);
  });

  it.each<BadRow>([
    [false, VALIDATION.acceptPrivacy],
    ["true", VALIDATION.acceptPrivacy],
    [undefined, VALIDATION.acceptPrivacy],
    [1, VALIDATION.acceptPrivacy],
  ])("rejects %j", (input, message) => expectInvalid(AcceptPrivacySchema, input, message));

  it("uses the product's literal message", () => {
    expect(messagesOf(AcceptPrivacySchema, false)).toEqual(["You must accept the terms and conditions"]);
  });
});

describe("Profile image: required → 'Please upload a profile image'", () => {
  it.each<[string, unknown]>([
    ["a Blob", new Blob(["x"], { type: "image/jpeg" })],
    ["a File", new File(["x"], "me.jpg", { type: "image/jpeg" })],
  ])("accepts %s", (_label, input) => {
    expect(expectValid(ProfileImageSchema, input)).toBe(input);
  });

  it.each<BadRow>([
    [undefined, VALIDATION.profileImage],
    [null, VALIDATION.profileImage],
    ["", VALIDATION.profileImage],
    ["me.jpg", VALIDATION.profileImage],
    [{}, VALIDATION.profileImage],
  ])("rejects %j", (input, message) => expectInvalid(ProfileImageSchema, input, message));

  it("uses the product's literal message", () => {
    expect(messagesOf(ProfileImageSchema, undefined)).toEqual(["Please upload a profile image"]);
  });
});

describe("Profile image crop: must be previewed → 'Please preview your image first'", () => {
  it("accepts true", () => {
    expect(expectValid(CropPreviewedSchema, true)).toBe(true);
  });

  it.each<BadRow>([
    [false, VALIDATION.cropPreview],
    [undefined, VALIDATION.cropPreview],
    ["true", VALIDATION.cropPreview],
  ])("rejects %j", (input, message) => expectInvalid(CropPreviewedSchema, input, message));

  it("uses the product's literal message", () => {
    expect(messagesOf(CropPreviewedSchema, false)).toEqual(["Please preview your image first"]);
  });
});

// ── The sign-up wizard ───────────────────────────────────────────────────
describe("Sign-up wizard steps", () => {
  it("runs personal, university, graduation, gender, instagram, phone, profileImage in that order", () => {
    expect(SIGNUP_STEPS).toEqual([
      "personal",
      "university",
      "graduation",
      "gender",
      "instagram",
      "phone",
      "profileImage",
    ]);
    expect(Object.keys(signupStepSchemas).sort()).toEqual([...SIGNUP_STEPS].sort());
  });

  const image = new Blob(["x"], { type: "image/png" });
  const cases: {
    step: (typeof SIGNUP_STEPS)[number];
    good: unknown;
    bad: unknown;
    field: string;
    message: string;
    literal: string;
  }[] = [
    {
      step: "personal",
      good: { firstName: "Jo" },
      bad: { firstName: "J" },
      field: "firstName",
      message: VALIDATION.firstName,
      literal: "First name is required",
    },
    {
      step: "university",
      good: { university: "3" },
      bad: { university: "" },
      field: "university",
      message: VALIDATION.university,
      literal: "Please select a university",
    },
    {
      step: "graduation",
      good: { graduationYear: String(classYearsAt(new Date())[0]) },
      // Last year's seniors have graduated.
      bad: { graduationYear: classYearsAt(new Date())[0]! - 1 },
      field: "graduationYear",
      message: VALIDATION.graduationYear,
      literal: "Graduation year is required",
    },
    {
      step: "gender",
      good: { gender: "female" },
      bad: { gender: "" },
      field: "gender",
      message: VALIDATION.gender,
      literal: "Please select your gender",
    },
    {
      step: "instagram",
      good: { instagramHandle: "john" },
      bad: { instagramHandle: "" },
      field: "instagramHandle",
      message: VALIDATION.instagramRequired,
      literal: "Instagram handle is required",
    },
    {
      step: "phone",
      good: { phone: "(202) 555-0123" },
      bad: { phone: "(555) 555" },
      field: "phone",
      message: VALIDATION.signupPhoneMin,
      literal: "Phone number must be at least 10 digits",
    },
    {
      step: "profileImage",
      good: { profileImage: image, cropPreviewed: true },
      bad: { cropPreviewed: true },
      field: "profileImage",
      message: VALIDATION.profileImage,
      literal: "Please upload a profile image",
    },
    {
      step: "profileImage",
      good: { profileImage: image, cropPreviewed: true },
      bad: { profileImage: image, cropPreviewed: false },
      field: "cropPreviewed",
      message: VALIDATION.cropPreview,
      literal: "Please preview your image first",
    },
  ];

  it.each(cases)(
    "$step accepts a good value and rejects $bad on $field",
    ({ step, good, bad, field, message, literal }) => {
      const schema = signupStepSchemas[step];
      expectValid(schema, good);
      expectInvalid(schema, bad, message);
      expect(messagesAt(schema, bad, field)).toEqual([literal]);
    },
  );

  it("normalizes values the way they are sent", () => {
    expect(expectValid(signupStepSchemas.university, { university: "3" })).toEqual({ university: 3 });
    const [seniors] = classYearsAt(new Date());
    expect(expectValid(signupStepSchemas.graduation, { graduationYear: String(seniors) })).toEqual({
      graduationYear: seniors,
    });
    expect(expectValid(signupStepSchemas.instagram, { instagramHandle: " john " })).toEqual({
      instagramHandle: "@john",
    });
  });
});

describe("SignupFormSchema: the whole form with its defaults", () => {
  const form = {
    firstName: "Jo",
    university: "3",
    graduationYear: String(classYearsAt(new Date())[0]),
    gender: "male",
    instagramHandle: "jo",
    phone: "(202) 555-0123",
    acceptPrivacy: true,
  };

  it("accepts a complete form and fills the defaults", () => {
    expect(expectValid(SignupFormSchema, form)).toEqual({
      firstName: "Jo",
      university: 3,
      graduationYear: classYearsAt(new Date())[0],
      gender: "male",
      instagramHandle: "@jo",
      phone: "(202) 555-0123",
      studentOrganization: "",
      interests: "",
      verificationCode: "",
      acceptPrivacy: true,
    });
  });

  it("requires acceptPrivacy to be true", () => {
    expect(messagesAt(SignupFormSchema, { ...form, acceptPrivacy: false }, "acceptPrivacy")).toEqual([
      VALIDATION.acceptPrivacy,
    ]);
    expect(messagesAt(SignupFormSchema, { ...form, acceptPrivacy: undefined }, "acceptPrivacy")).toEqual([
      "You must accept the terms and conditions",
    ]);
  });

  it("reports every bad field under its own name", () => {
    const result = SignupFormSchema.safeParse({});
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrorsOf(result.error)).toEqual({
      firstName: [VALIDATION.firstName],
      university: [VALIDATION.university],
      graduationYear: [VALIDATION.graduationYear],
      gender: [VALIDATION.gender],
      instagramHandle: [VALIDATION.instagramRequired],
      phone: [VALIDATION.signupPhoneMin],
      acceptPrivacy: [VALIDATION.acceptPrivacy],
    });
  });
});

// ── Profile update ───────────────────────────────────────────────────────
describe("ProfileUpdateSchema (PATCH /users/update)", () => {
  it.each<Row>([
    [{}, {}],
    [{ firstName: " Jo " }, { firstName: "Jo" }],
    [
      { university: "3", graduationYear: "2028" },
      { university: 3, graduationYear: 2028 },
    ],
    [{ instagramHandle: "john" }, { instagramHandle: "@john" }],
    [
      { gender: "female", preference: "male" },
      { gender: "female", preference: "male" },
    ],
    [{ isVerified: "true" }, { isVerified: true }],
    [{ isVerified: "false" }, { isVerified: false }],
    [{ isVerified: true }, { isVerified: true }],
    [{ isVerified: false }, { isVerified: false }],
    [
      { organizations: ["Chess"], interests: ["Music", "Hiking"] },
      { organizations: ["Chess"], interests: ["Music", "Hiking"] },
    ],
    [{ emojis: [] }, { emojis: [] }],
    [{ emojis: ["😀", "🔥", "❤️"] }, { emojis: ["😀", "🔥", "❤️"] }],
  ])("accepts %j as %j", (input, expected) => {
    expect(expectValid(ProfileUpdateSchema, input)).toEqual(expected);
  });

  it.each<[field: string]>([["remainingUnlocks"], ["isAdmin"], ["phone"], ["boostEndTime"], ["id"]])(
    "rejects the unknown key %s (strict)",
    (field) => {
      const result = ProfileUpdateSchema.safeParse({ firstName: "Jo", [field]: "x" });
      expect(result.success).toBe(false);
      if (result.success) return;
      expect(result.error.issues).toHaveLength(1);
      expect(result.error.issues[0]?.code).toBe("unrecognized_keys");
      expect((result.error.issues[0] as { keys?: string[] }).keys).toEqual([field]);
    },
  );

  it.each<[input: unknown, field: string, message: string]>([
    [{ firstName: "J" }, "firstName", VALIDATION.firstName],
    [{ university: "0" }, "university", VALIDATION.university],
    [{ graduationYear: 2101 }, "graduationYear", VALIDATION.graduationYear],
    [{ gender: "x" }, "gender", VALIDATION.gender],
    [{ instagramHandle: "a b" }, "instagramHandle", VALIDATION.instagramFormat],
    [{ emojis: ["😀", "🔥", "❤️", "🎉"] }, "emojis", "Choose up to 3 emojis"],
    [{ emojis: ["abc"] }, "emojis.0", "Choose an emoji"],
    [{ organizations: ["  "] }, "organizations.0", "Entries can't be empty"],
    [{ interests: ["x".repeat(41)] }, "interests.0", "Keep each one to 40 characters or fewer"],
    [{ interests: Array.from({ length: 11 }, (_, i) => `Interest ${i}`) }, "interests", "Add up to 10"],
  ])("rejects %j with the field's message", (input, field, message) => {
    expect(messagesAt(ProfileUpdateSchema, input, field)).toEqual([message]);
  });

  it.each<[unknown]>([["yes"], ["1"], [1], ["TRUE"], [null]])("rejects isVerified %j", (isVerified) => {
    expect(ProfileUpdateSchema.safeParse({ isVerified }).success).toBe(false);
  });
});

describe("BooleanText", () => {
  it.each<Row>([
    ["true", true],
    ["false", false],
    [true, true],
    [false, false],
  ])("%j → %j", (input, expected) => {
    expect(expectValid(BooleanText, input)).toBe(expected);
  });
  it.each<[unknown]>([["maybe"], [""], [0], [undefined]])("rejects %j", (input) => {
    expect(BooleanText.safeParse(input).success).toBe(false);
  });
});

// ── Server-side forms ────────────────────────────────────────────────────
describe("E164PhoneSchema and VerificationCodeSchema (what the server accepts)", () => {
  it.each<[unknown, boolean]>([
    ["+12025550123", true],
    ["+1202555012", false],
    ["+120255501234", false],
    ["12025550123", false],
    ["+442025550123", false],
    ["(202) 555-0123", false],
    ["+1 202 555 0123", false],
  ])("phone %j valid=%j", (input, ok) => {
    expect(E164PhoneSchema.safeParse(input).success).toBe(ok);
    if (!ok) expect(messagesOf(E164PhoneSchema, input)).toEqual([VALIDATION.loginPhone]);
  });

  it.each(["+18765551234", "+12685551234", "+10005551234", "+11115551234", "+15555555555", "+19005551234"])(
    "refuses %s, well formed but not a US number it may text",
    (input) => {
      expect(messagesOf(E164PhoneSchema, input)).toEqual([VALIDATION.usPhone]);
    },
  );

  it.each<[unknown, string[]]>([
    ["123456", []],
    [" 123456 ", []],
    ["", [VALIDATION.loginCode]],
    [undefined, [VALIDATION.loginCode]],
    ["12345", [VALIDATION.verificationCodeFormat]],
    ["1234567", [VALIDATION.verificationCodeFormat]],
    ["12a456", [VALIDATION.verificationCodeFormat]],
  ])("code %j → %j", (input, messages) => {
    expect(messagesOf(VerificationCodeSchema, input)).toEqual(messages);
  });
});

describe("Control characters: refused in typed text, line breaks only where text has lines", () => {
  it("refuses them in a profile's lists and emojis, naming the entry", () => {
    const input = { organizations: ["Chess", "Rob\u0000otics"], interests: ["\u0007Hiking"], emojis: ["🎸\u0000"] };
    expect(messagesAt(ProfileUpdateSchema, input, "organizations.1")).toEqual([VALIDATION.controlCharacters]);
    expect(messagesAt(ProfileUpdateSchema, input, "interests.0")).toEqual([VALIDATION.controlCharacters]);
    expect(messagesAt(ProfileUpdateSchema, input, "emojis.0")).toEqual([VALIDATION.controlCharacters]);
  });

  it("keeps line breaks and tabs in a report's note, and refuses the rest there", () => {
    const target = { userId: "00000000-0000-4000-8000-000000000000" };
    expect(ReportInput.safeParse({ target, reason: "other", note: "one\n\ttwo" }).success).toBe(true);
    expect(messagesAt(ReportInput, { target, reason: "other", note: "one\u0000two" }, "note")).toEqual([
      VALIDATION.controlCharacters,
    ]);
  });

  it("CONTROL_CHARACTERS spares tab, line feed, carriage return and every printable character", () => {
    expect(CONTROL_CHARACTERS.test("\t\n\r Zoë 🎸 ’ —")).toBe(false);
    for (const char of ["\u0000", "\u0008", "\u000b", "\u001f", "\u007f", "\u0080", "\u009f"])
      expect(CONTROL_CHARACTERS.test(char), JSON.stringify(char)).toBe(true);
  });
});

describe("Format characters: refused in every field of one line, spared inside emoji and words", () => {
  const hidden = [
    ["zero-width spaces", "\u200b\u200b\u200b"],
    ["a right-to-left override", "Ada\u202emoc.evil"],
    ["a left-to-right isolate", "\u2066Ada\u2069"],
    ["a soft hyphen", "Ad\u00ada"],
    ["a byte order mark inside", "Ad\ufeffa"],
    ["a joiner at the start", "\u200dAda"],
    ["two joiners in a row", "A\u200d\u200dda"],
    ["a tag outside a flag", "Ada\u{e0041}"],
    // Letters and marks that draw nothing: a blank name, or a lookalike of a classmate's.
    ["Hangul fillers", "\u3164\u3164"],
    ["half-width Hangul fillers", "\uffa0\uffa0"],
    ["a combining grapheme joiner", "Av\u034fery"],
    ["a joiner between Latin letters", "Av\u200dery"],
    ["a non-joiner between Latin letters", "Ave\u200cry"],
  ] as const;

  it.each(hidden)("a first name with %s", (_name, input) => {
    expect(messagesOf(FirstNameSchema, input)[0]).toBe(VALIDATION.controlCharacters);
  });

  it.each(hidden)("profile entries and emojis with %s", (_name, input) => {
    const body = { organizations: [`${input}Chess`], interests: [input], emojis: [`${input}🎸`] };
    for (const path of ["organizations.0", "interests.0", "emojis.0"])
      expect(messagesAt(ProfileUpdateSchema, body, path)[0], path).toBe(VALIDATION.controlCharacters);
  });

  it("spares joined emoji, a subdivision flag and a Persian name with its non-joiner", () => {
    const emojis = ["👩\u200d💻", "👍🏽", "🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}"];
    expect(ProfileUpdateSchema.safeParse({ emojis }).success).toBe(true);
    expect(ProfileUpdateSchema.safeParse({ emojis: ["❤\ufe0f", "🏳\ufe0f\u200d🌈"] }).success).toBe(true);
    expect(expectValid(FirstNameSchema, "\u0645\u06cc\u200c\u0646\u0627")).toBe("\u0645\u06cc\u200c\u0646\u0627");
    expect(ProfileUpdateSchema.safeParse({ interests: ["Coding 👨\u200d💻", "Room 1\ufe0f\u20e3"] }).success).toBe(
      true,
    );
    // A Hindi name with a joiner after the virama.
    expect(expectValid(FirstNameSchema, "\u0915\u094d\u200d\u0937")).toBe("\u0915\u094d\u200d\u0937");
  });

  it("a first name needs a letter", () => {
    for (const input of ["12", "💥💥", "-- ", "..."])
      expect(messagesOf(FirstNameSchema, input)).toEqual([VALIDATION.firstNameLetter]);
    expect(expectValid(FirstNameSchema, "Jo2")).toBe("Jo2");
    expect(messagesOf(FirstNameSchema, "J")).toEqual([VALIDATION.firstName]);
  });
});

import { classYearsAt, ERROR_MESSAGES, MeUser, VALIDATION } from "@quad/contracts";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, signIn, testPhone } from "../../test/auth";
import { decompressionBomb, jpegWithGps, multipartBody, png, webp } from "../../test/images";
import { PHOTO_MESSAGES } from "./photo";

let t: TestApp;
let schoolId: number;
beforeAll(async () => {
  t = await createTestApp();
  schoolId = (await t.app.inject({ method: "GET", url: "/api/schools" })).json()[0].id;
});
afterAll(() => t?.close());

/** This academic year's seniors: a class the wizard offers today. */
const SENIORS = classYearsAt(new Date())[0]!;
const basics = () => ({
  firstName: "Avery",
  university: String(schoolId),
  graduationYear: String(SENIORS),
  gender: "female",
  instagramHandle: "avery.codes",
});

async function patch(
  tokens: { token: string },
  fields: Record<string, string | string[]>,
  file?: Parameters<typeof multipartBody>[1],
) {
  const body = multipartBody(fields, file);
  return t.app.inject({
    method: "PATCH",
    url: "/api/users/update",
    headers: { ...body.headers, ...bearer(tokens) },
    payload: body.payload,
  });
}

describe("GET /api/users/me", () => {
  it("is 401 without a token and 404 'No such user exists!' before a profile exists", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/users/me" })).statusCode).toBe(401);
    const tokens = await signIn(t.app, testPhone());
    const res = await t.app.inject({ method: "GET", url: "/api/users/me", headers: bearer(tokens) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "No such user exists!", code: "NOT_FOUND" });
  });
});

describe("PATCH /api/users/update", () => {
  it("creates the profile on the first call, unverified until a photo is processed", async () => {
    const phone = testPhone();
    const tokens = await signIn(t.app, phone);
    const res = await patch(tokens, { ...basics(), isVerified: "true" });
    expect(res.statusCode).toBe(200);
    const user = MeUser.parse(res.json().user);
    expect(user).toMatchObject({
      phone,
      firstName: "Avery",
      university: schoolId,
      graduationYear: SENIORS,
      gender: "female",
      instagramHandle: "@avery.codes",
      isVerified: false,
      remainingUnlocks: 0,
      profileImage: null,
      boostEndTime: null,
      // The landing preview is opt-in: a new student is not in it, and not paused.
      showInPreview: false,
      paused: false,
      heldForReview: false,
    });
    expect(user.schoolName).toBeTruthy();
    expect(user.schoolLogo).toMatch(/^data:image\/svg\+xml/);
    const me = await t.app.inject({ method: "GET", url: "/api/users/me", headers: bearer(tokens) });
    expect(me.json()).toEqual(res.json().user);
  });

  it("verifies the profile once a photo is processed, stripping GPS and re-encoding at 3:4", async () => {
    const tokens = await signIn(t.app, testPhone());
    await patch(tokens, basics());
    const original = await jpegWithGps(1000, 1000);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await patch(tokens, { isVerified: "true" }, { name: "me.png", type: "image/png", data: original });
    expect(res.statusCode).toBe(200);
    const user = res.json().user;
    expect(user.isVerified).toBe(true);
    expect(user.profileImage).toMatch(/^\/api\/media\/photos\/[0-9a-f-]+\.jpg$/);

    const served = await t.app.inject({ method: "GET", url: user.profileImage });
    expect(served.statusCode).toBe(200);
    expect(served.headers["cache-control"]).toContain("max-age=31536000");
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.width! / meta.height!).toBeCloseTo(3 / 4);
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from("GPS"))).toBe(false);
    expect(served.rawPayload.includes(Buffer.from("TestPhone"))).toBe(false);
  });

  it.each([
    ["PNG", () => png()],
    ["WebP", () => webp()],
  ])("accepts a %s photo", async (_type, make) => {
    const tokens = await signIn(t.app, testPhone());
    const res = await patch(tokens, basics(), { name: "photo", type: "application/octet-stream", data: await make() });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.isVerified).toBe(true);
  });

  it("reads the type from the bytes: a text file named .jpg is 415", async () => {
    const tokens = await signIn(t.app, testPhone());
    const res = await patch(tokens, basics(), {
      name: "me.jpg",
      type: "image/jpeg",
      data: Buffer.from("<svg onload=alert(1)>"),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: PHOTO_MESSAGES.unsupported, code: "UNSUPPORTED_MEDIA_TYPE" });
  });

  it("refuses a photo over 10 MB with 413", async () => {
    const tokens = await signIn(t.app, testPhone());
    const big = Buffer.concat([await jpegWithGps(), Buffer.alloc(10 * 1024 * 1024)]);
    const res = await patch(tokens, basics(), { name: "big.jpg", type: "image/jpeg", data: big });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refuses a decompression bomb with 413", async () => {
    const tokens = await signIn(t.app, testPhone());
    const bomb = await decompressionBomb();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await patch(tokens, basics(), { name: "bomb.png", type: "image/png", data: bomb });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: PHOTO_MESSAGES.tooManyPixels, code: "PAYLOAD_TOO_LARGE" });
  });

  it("answers bad fields with 400 and the contracts' messages", async () => {
    const tokens = await signIn(t.app, testPhone());
    const res = await patch(tokens, {
      firstName: "A",
      graduationYear: "2101",
      gender: "robot",
      instagramHandle: "bad handle",
      university: "0",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual({
      firstName: ["First name is required"],
      graduationYear: ["Graduation year is required"],
      gender: ["Please select your gender"],
      instagramHandle: ["Invalid Instagram handle format"],
      university: ["Please select a university"],
    });
  });

  it("refuses a university that does not exist", async () => {
    const tokens = await signIn(t.app, testPhone());
    const res = await patch(tokens, { ...basics(), university: "99999" });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toEqual({ university: ["Please select a university"] });
  });

  it.each([
    ["remainingUnlocks", "99"],
    ["phone", "+15550000000"],
    ["boostEndsAt", "2030-01-01"],
    ["role", "admin"],
  ])("never writes the server-owned field %s", async (field, value) => {
    const tokens = await signIn(t.app, testPhone());
    const res = await patch(tokens, { ...basics(), [field]: value });
    expect(res.statusCode).toBe(400);
    const me = await t.app.inject({ method: "GET", url: "/api/users/me", headers: bearer(tokens) });
    expect(me.statusCode).toBe(404);
  });

  it("accepts JSON bodies and list fields", async () => {
    const tokens = await signIn(t.app, testPhone());
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: bearer(tokens),
      payload: {
        ...basics(),
        university: schoolId,
        organizations: ["Robotics Club"],
        interests: ["Chess", "Hiking"],
        preference: "male",
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      organizations: ["Robotics Club"],
      interests: ["Chess", "Hiking"],
      preference: "male",
    });
    const multi = await patch(tokens, { interests: ["Film", "Running"], emojis: '["🎸"]' });
    expect(multi.json().user).toMatchObject({ interests: ["Film", "Running"], emojis: ["🎸"] });
  });

  it("changes only the caller's own profile", async () => {
    const a = await signIn(t.app, testPhone());
    const b = await signIn(t.app, testPhone());
    await patch(a, basics());
    await patch(b, { ...basics(), firstName: "Blake" });
    const meA = await t.app.inject({ method: "GET", url: "/api/users/me", headers: bearer(a) });
    expect(meA.json().firstName).toBe("Avery");
  });

  it("is 401 without a session", async () => {
    const body = multipartBody(basics());
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: body.headers,
      payload: body.payload,
    });
    expect(res.statusCode).toBe(401);
  });

  it("is also a tRPC mutation for JSON fields", async () => {
    const tokens = await signIn(t.app, testPhone());
    const res = await t.app.inject({
      method: "POST",
      url: "/api/trpc/users.update",
      headers: bearer(tokens),
      payload: { ...basics(), university: schoolId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.user.firstName).toBe("Avery");
  });
});

describe("an upload", () => {
  it("stores the processed photo and nothing rendered from it (no teaser for locked cards)", async () => {
    const tokens = await signIn(t.app, testPhone());
    await patch(tokens, basics(), { name: "p.jpg", type: "image/jpeg", data: await jpegWithGps() });
    expect(await t.deps.media.list("teasers/")).toEqual([]);
    const me = (await t.app.inject({ method: "GET", url: "/api/users/me", headers: bearer(tokens) })).json();
    expect(me.profileImage).toMatch(/^\/api\/media\/photos\/[0-9a-f-]{36}\.jpg$/);
  });
});

describe("PATCH /api/users/update with input no column or parser can take", () => {
  it.each([
    ["multipart", (tokens: { token: string }) => patch(tokens, { university: "2147483648" })],
    [
      "JSON",
      (tokens: { token: string }) =>
        t.app.inject({
          method: "PATCH",
          url: "/api/users/update",
          headers: bearer(tokens),
          payload: { university: 2147483648 },
        }),
    ],
    [
      "tRPC",
      (tokens: { token: string }) =>
        t.app.inject({
          method: "POST",
          url: "/api/trpc/users.update",
          headers: bearer(tokens),
          payload: { university: 2147483648 },
        }),
    ],
  ])("answers university 2147483648 (past an integer column) with 400 over %s", async (_via, send) => {
    const tokens = await signIn(t.app, testPhone());
    const res = await send(tokens);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(VALIDATION.university);
  });

  const boundary = "quadBoundary";
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  it.each<[string, string, string]>([
    [
      "cut short",
      `multipart/form-data; boundary=${boundary}`,
      `${field("firstName", "Avery")}--${boundary}\r\nContent-Disposition: form-data; name="gender"\r\n\r\nfem`,
    ],
    ["without a boundary parameter", "multipart/form-data", `${field("firstName", "Avery")}--${boundary}--\r\n`],
    ["not multipart inside", `multipart/form-data; boundary=${boundary}`, "just some text"],
    [
      "a file cut short",
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="profileImage"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`,
    ],
  ])("answers a multipart body %s with 400 and the shared error body", async (_name, contentType, payload) => {
    const tokens = await signIn(t.app, testPhone());
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: { "content-type": contentType, ...bearer(tokens) },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: ERROR_MESSAGES.malformedUpload, code: "BAD_REQUEST" });
  });

  it("answers a body of the wrong kind with 4xx, never 5xx", async () => {
    const tokens = await signIn(t.app, testPhone());
    for (const [type, payload] of [
      ["text/plain", "hello"],
      ["application/xml", "<a/>"],
      ["application/json", "[1,2]"],
      ["application/json", "{"],
    ]) {
      const res = await t.app.inject({
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": type!, ...bearer(tokens) },
        payload,
      });
      expect(res.statusCode, `${type} ${payload}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${type} ${payload}`).toBeLessThan(500);
    }
  });
});

describe("class years follow the server's clock, turning on 1 July", () => {
  let clock = new Date("2026-06-30T23:59:00.000Z");
  let c: TestApp;
  let school: number;
  beforeAll(async () => {
    c = await createTestApp({ now: () => clock });
    school = (await c.app.inject({ method: "GET", url: "/api/schools" })).json()[0].id;
  });
  afterAll(() => c?.close());

  /** Sends a class year over REST and tRPC, as a new student: the two status codes. */
  async function signUpAs(graduationYear: number) {
    const fields = { firstName: "Avery", university: school, graduationYear, gender: "female" };
    const rest = await c.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: bearer(await signIn(c.app, testPhone())),
      payload: fields,
    });
    const trpc = await c.app.inject({
      method: "POST",
      url: "/api/trpc/users.update",
      headers: bearer(await signIn(c.app, testPhone())),
      payload: fields,
    });
    for (const res of [rest, trpc].filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain(VALIDATION.graduationYear);
    }
    return [rest.statusCode, trpc.statusCode];
  }

  it("on 30 June 2026 the class of 2026 may still sign up, and 2030 not yet", async () => {
    clock = new Date("2026-06-30T23:59:00.000Z");
    expect(await signUpAs(2026)).toEqual([200, 200]);
    expect(await signUpAs(2029)).toEqual([200, 200]);
    expect(await signUpAs(2030)).toEqual([400, 400]);
  });

  it("from 1 July 2026 the class of 2026 has graduated and 2030 has arrived", async () => {
    clock = new Date("2026-07-01T00:00:00.000Z");
    expect(await signUpAs(2026)).toEqual([400, 400]);
    expect(await signUpAs(2027)).toEqual([200, 200]);
    expect(await signUpAs(2030)).toEqual([200, 200]);
    expect(await signUpAs(2031)).toEqual([400, 400]);
  });

  it("answers the field's message in fieldErrors, like the schema's", async () => {
    clock = new Date("2026-11-27T12:00:00.000Z");
    const res = await c.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: bearer(await signIn(c.app, testPhone())),
      payload: { firstName: "Avery", university: school, graduationYear: 2026, gender: "female" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: VALIDATION.graduationYear,
      code: "BAD_REQUEST",
      fieldErrors: { graduationYear: [VALIDATION.graduationYear] },
    });
  });
});

import { classYearsAt, MeUser } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { bearer, signIn, testPhone } from "../test/auth";
import { multipartBody, portraitJpeg } from "../test/images";
import { campus } from "../test/voters";

/**
 * Media is served without a session (/api/media/<key>), so a photo's URL is
 * a capability: whoever kept one (from a round, an unlocked card, a block
 * list) can fetch it for as long as the file exists. The attack: keep the
 * URL and fetch it, signed out, after the student replaced the photo,
 * deleted the account, or a moderator removed the photo or the profile.
 * Each time the file must be gone.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

let schoolId: number;
let shade = 0;
/** A student signed up through the real flow, with a photo through the real pipeline. */
async function student() {
  schoolId ??= (await campus(t)).school.id;
  const phone = testPhone();
  const tokens = await signIn(t.app, phone, "10.44.0.1");
  const headers = bearer(tokens);
  const upload = async () => {
    shade = (shade + 37) % 200;
    const body = multipartBody(
      {
        firstName: "Kept",
        university: String(schoolId),
        graduationYear: String(classYearsAt(new Date())[0]),
        gender: "female",
        instagramHandle: "kept.url",
      },
      {
        name: "me.jpg",
        type: "image/jpeg",
        data: await portraitJpeg([shade, 40, 40], [40, shade, 40], [40, 40, shade]),
      },
    );
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: { ...body.headers, ...headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return MeUser.parse(res.json().user);
  };
  const me = await upload();
  expect(me.profileImage).toMatch(/^\/api\/media\/photos\//);
  return { me, headers, upload };
}
const fetchSignedOut = async (url: string) => (await t.app.inject({ method: "GET", url })).statusCode;

describe("a kept photo URL stops working", () => {
  it("when the student replaces the photo", async () => {
    const s = await student();
    expect(await fetchSignedOut(s.me.profileImage!)).toBe(200);
    const next = await s.upload();
    expect(next.profileImage).not.toBe(s.me.profileImage);
    expect(await fetchSignedOut(s.me.profileImage!)).toBe(404);
    expect(await fetchSignedOut(next.profileImage!)).toBe(200);
  });

  it("when the student deletes the account", async () => {
    const s = await student();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/users/delete-account",
      headers: s.headers,
      payload: { confirm: "DELETE" },
    });
    expect(res.statusCode).toBe(200);
    expect(await fetchSignedOut(s.me.profileImage!)).toBe(404);
  });

  it("when a moderator removes the photo, or the profile", async () => {
    const mod = await campus(t);
    await grantAdmin(t.deps.db, mod.me.phone);
    for (const action of ["removePhoto", "removeProfile"]) {
      const s = await student();
      const res = await t.app.inject({
        method: "POST",
        url: `/api/trpc/admin.${action}`,
        headers: mod.headers,
        payload: { userId: s.me.id },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await fetchSignedOut(s.me.profileImage!), action).toBe(404);
    }
  });
});

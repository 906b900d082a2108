import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { campus, sessionFor } from "../test/voters";

/**
 * A reported student must not learn of the report until a hold tells them
 * their profile is under review: an owner's refusal to delete (409) was
 * ruled out for that reason, as it would expose the report and perhaps the
 * reporter. The export counted the reports about its student
 * ("reportsAboutYou"), so a student exporting now and then saw the count
 * rise the moment someone reported them, and could match that moment to
 * whom they had just met (say, the classmate whose card they had voted
 * for). Now the export says nothing of reports about its student: the
 * export just before and just after a report is the same.
 */
let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
beforeAll(async () => {
  t = await createTestApp();
  c = await campus(t);
}, 60_000);
afterAll(() => t?.close());

describe("the export of a student someone reports", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`is the same just before and just after the report (${via})`, async () => {
      const reported = await c.student({ gender: "female", preference: "male" });
      const beside = await c.student({ gender: "female" });
      await showTo(t, c.me.id, reported.id, beside.id);
      const headers = { authorization: `Bearer ${(await sessionFor(t, reported.phone)).token}` };
      const exportNow = async () => {
        const res = await t.app.inject({
          method: "GET",
          url: via === "rest" ? "/api/users/export" : "/api/trpc/account.export",
          headers,
        });
        expect(res.statusCode, res.body).toBe(200);
        const { exportedAt: _, ...rest } = (via === "rest" ? res.json() : res.json().result.data) as Record<
          string,
          unknown
        >;
        return rest;
      };

      const before = await exportNow();
      const res = await t.app.inject({
        method: "POST",
        url: via === "rest" ? "/api/safety/report" : "/api/trpc/safety.report",
        headers: c.headers,
        payload: { target: { userId: reported.id }, reason: "under_18" },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await exportNow()).toEqual(before);
    });
  }
});

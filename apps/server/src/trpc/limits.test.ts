import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../rate-limit/limiter";
import { enforceWriteLimits, WRITE_LIMITS } from "./limits";

const refused = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("write limits", () => {
  it("signed in: the student's limit first, then the address's backstop (which a refused student does not spend)", async () => {
    const limiter = createMemoryRateLimiter(() => 0);
    const ip = "192.0.2.1";
    for (let i = 0; i < WRITE_LIMITS.perStudent.limit; i++)
      await enforceWriteLimits(limiter, { name: "rounds.vote", ip, phone: "+12025550100" });
    for (let i = 0; i < 50; i++)
      expect(
        await refused(enforceWriteLimits(limiter, { name: "rounds.vote", ip, phone: "+12025550100" })),
      ).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    // The address has spent 120 of its backstop: the rest is for the other students.
    const backstop = WRITE_LIMITS.perAddress.limit;
    for (let i = WRITE_LIMITS.perStudent.limit; i < backstop; i++)
      await enforceWriteLimits(limiter, { name: "rounds.vote", ip, phone: `+1202${String(2000000 + (i % 5000))}` });
    expect(
      await refused(enforceWriteLimits(limiter, { name: "rounds.vote", ip, phone: "+12029999999" })),
    ).toMatchObject({ code: "TOO_MANY_REQUESTS", details: { retryAfterSeconds: 60 } });
  });

  it("signed out: the address's backstop, the same as signed in", async () => {
    const limiter = createMemoryRateLimiter(() => 0);
    for (let i = 0; i < WRITE_LIMITS.perAddress.limit; i++)
      await enforceWriteLimits(limiter, { name: "auth.refresh", ip: "192.0.2.2" });
    expect(await refused(enforceWriteLimits(limiter, { name: "auth.refresh", ip: "192.0.2.2" }))).toMatchObject({
      code: "TOO_MANY_REQUESTS",
    });
    await enforceWriteLimits(limiter, { name: "auth.refresh", ip: "192.0.2.3" });
  });
});

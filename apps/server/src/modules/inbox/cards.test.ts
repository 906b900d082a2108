import { describe, expect, it } from "vitest";
import { isoMillis } from "./cards";

describe("isoMillis", () => {
  it("answers what Date#toISOString answers for every form to_json writes", () => {
    const written = [
      "2026-11-23T03:27:08.123456+00:00",
      "2026-11-23T03:27:08.999999+00:00",
      "2026-11-23T03:27:08.123+00:00",
      "2026-11-23T03:27:08.1+00:00",
      "2026-11-23T03:27:08+00:00",
      "2026-11-23T04:27:08.123456+01:00",
      "2026-11-22T22:27:08.5-05:00",
      "2026-11-23T03:27:08.1234+05:30",
    ];
    for (const text of written) expect(isoMillis(text), text).toBe(new Date(text).toISOString());
  });
});

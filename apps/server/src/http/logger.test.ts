import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";

describe("request logs", () => {
  const lines: string[] = [];
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { LOG_LEVEL: "info" }, logStream: { write: (line) => void lines.push(line) } });
  });
  afterAll(() => app.close());

  it("one line per request, when answered: method, path without the query, status and time", async () => {
    lines.length = 0;
    const res = await app.app.inject({ method: "GET", url: "/api/health?phone=%2B15555550123" });
    expect(res.statusCode).toBe(200);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      msg: "request completed",
      req: { method: "GET", path: "/api/health" },
      res: { statusCode: 200 },
    });
    expect(typeof entries[0]!.responseTime).toBe("number");
    expect(lines.join("")).not.toContain("5555550123");
  });
});

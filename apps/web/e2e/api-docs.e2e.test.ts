import { describe, expect, inject, it } from "vitest";
import { useBrowser } from "./browser";

const baseURL = inject("baseURL");

/**
 * The interactive API docs (development only) under the app's own
 * Content-Security-Policy: Swagger UI renders every operation and "Try it
 * out" reaches the API, and the policy blocks nothing on the way.
 */
describe("API docs at /api/docs", () => {
  const chromium = useBrowser();

  it("render the OpenAPI document and call the API without a CSP violation", async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const violations: string[] = [];
    const errors: string[] = [];
    await context.exposeBinding("__reportCspViolation", (_source, text: string) => violations.push(text));
    await context.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
        report(
          `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
        );
      });
    });
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
    });
    try {
      await page.goto(`${baseURL}/api/docs`, { waitUntil: "networkidle" });
      const documented = (await (await fetch(`${baseURL}/api/openapi.json`)).json()) as {
        paths: Record<string, object>;
      };
      const operations = Object.values(documented.paths).reduce((count, path) => count + Object.keys(path).length, 0);
      await expect.poll(() => page.locator(".opblock").count()).toBe(operations);

      await page
        .locator(".opblock-get")
        .filter({ has: page.locator('.opblock-summary-path[data-path="/api/health"]') })
        .locator(".opblock-summary")
        .click();
      await page.getByRole("button", { name: "Try it out" }).click();
      await page.getByRole("button", { name: "Execute" }).click();
      await expect
        .poll(() => page.locator(".live-responses-table tbody .response-col_status").first().textContent())
        .toContain("200");

      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

import { SESSION_STORAGE_KEY } from "@quad/contracts";
import { loadavg } from "node:os";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { createApi, type Student } from "./api";
import { useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * /home on a slow phone network: how long until a signed-in student can vote.
 * "Usable" is the round's prompt on screen and both "Vote for …" buttons
 * enabled (portraits may still be loading), timed from the navigation's start
 * in the page. Measured for a returning student (Quad opened before in this
 * browser profile: its service worker and caches are installed), against the
 * 4 s budget, and for a first visit with an empty cache, printed for the
 * record. Each run prints its requests: when each went out and ended.
 */

/**
 * Chrome DevTools' "Slow 3G" preset (called "3G" since 2024): Slow3GConditions in
 * devtools-frontend's front_end/core/sdk/NetworkManager.ts, 400 ms RTT × 5 latency and
 * 500 kbit/s × 0.8 each way. In bytes per second: 50,000.
 */
const SLOW_3G = {
  offline: false,
  latency: 400 * 5,
  downloadThroughput: ((500 * 1000) / 8) * 0.8,
  uploadThroughput: ((500 * 1000) / 8) * 0.8,
};
const BUDGET_MS = 4000;
const RETURNING_RUNS = 5;
const FIRST_VISIT_RUNS = 3;

const { createStudent } = createApi(baseURL, "203.0.113.96");

declare global {
  interface Window {
    /** performance.now() when /home first became usable. */
    __usableAt?: number;
  }
}

/** Runs in the page before its scripts: records when the round becomes votable. */
function watchUsable() {
  const usable = () => {
    const prompt = document.querySelector("section[aria-busy=false] h2")?.textContent?.trim();
    const votes = Array.from(document.querySelectorAll<HTMLButtonElement>('button[aria-label^="Vote for "]'));
    return Boolean(prompt) && votes.length === 2 && votes.every((button) => !button.disabled);
  };
  new MutationObserver((_, observer) => {
    if (!usable()) return;
    window.__usableAt = performance.now();
    observer.disconnect();
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

/** A phone whose profile already holds the student's session (as the app stores it), and nothing else. */
function newPhone(browser: Browser, student: Student): Promise<BrowserContext> {
  const session = { state: { ...student.tokens, verified: student.me.isVerified }, version: 1 };
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    storageState: {
      cookies: [],
      origins: [{ origin: baseURL, localStorage: [{ name: SESSION_STORAGE_KEY, value: JSON.stringify(session) }] }],
    },
  });
}

interface PageRequest {
  url: URL;
  type: string;
  start: number;
  end: number;
  bytes: number;
  /** Answered by the service worker (from its cache), not the network. */
  fromWorker: boolean;
}

interface Visit {
  /** From the navigation's start, in ms. */
  usableMs: number;
  /** The page's requests until then (the navigation first), by start. */
  requests: PageRequest[];
}

/** Opens /home in a new tab of `context` on Slow 3G and waits until it is usable. */
async function timedVisit(context: BrowserContext, { emptyCache = false } = {}): Promise<Visit> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const fromWorker = new Set<string>();
  page.on("response", (response) => {
    if (response.fromServiceWorker()) fromWorker.add(response.url());
  });
  // The page's emulation also holds the worker's fetches for it (the shell it refreshes behind the
  // navigation takes the 2 s like any other request).
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_3G);
  if (emptyCache) await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  // As after a while away: the browser has stopped the worker, which starts again for the navigation.
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.stopAllWorkers");
  try {
    await page.addInitScript(watchUsable);
    await page.goto(`${baseURL}/home`, { waitUntil: "commit", timeout: 60_000 });
    await page.waitForFunction(() => window.__usableAt !== undefined, undefined, { timeout: 60_000 });
    const usableMs = await page.evaluate(() => window.__usableAt!);
    expect(errors).toEqual([]);
    return { usableMs, requests: await requestsOf(page, fromWorker) };
  } finally {
    await page.close();
  }
}

/** The page's requests so far, from its Resource Timing: ms from the navigation's start. */
async function requestsOf(page: Page, fromWorker: Set<string>): Promise<PageRequest[]> {
  const entries = await page.evaluate(() =>
    [
      ...(performance.getEntriesByType("navigation") as PerformanceResourceTiming[]),
      ...(performance.getEntriesByType("resource") as PerformanceResourceTiming[]),
    ].map((entry) => ({
      name: entry.name,
      type: entry.initiatorType,
      start: entry.startTime,
      end: entry.responseEnd,
      bytes: entry.transferSize,
    })),
  );
  return entries
    .map(({ name, ...entry }) => ({ ...entry, url: new URL(name), fromWorker: fromWorker.has(name) }))
    .sort((a, b) => a.start - b.start);
}

/** One line a request: start → end, what asked, where the answer came from, the path. */
function timeline(requests: PageRequest[]): string {
  return requests
    .map((r) => {
      const where = r.fromWorker ? "service worker" : `${(r.bytes / 1000).toFixed(1)} kB network`;
      const path = `${r.url.pathname}${r.url.search}`.replace(/(\?batch=1&input=).*/, "$1…").slice(0, 90);
      return `  ${r.start.toFixed(0).padStart(6)} → ${r.end.toFixed(0).padStart(6)} ms  ${r.type.padEnd(10)} ${where.padEnd(17)} ${path}`;
    })
    .join("\n");
}

/** The API requests of a visit, by start. */
const apiCalls = (visit: Visit) => visit.requests.filter((r) => r.url.pathname.startsWith("/api/trpc/"));

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

function report(label: string, visits: Visit[]): { p50: number; worst: number } {
  const times = visits.map((visit) => visit.usableMs);
  const p50 = percentile(times, 50);
  const worst = Math.max(...times);
  visits.forEach((visit, index) =>
    console.log(
      `[slow 3g] ${label}, run ${index + 1}: usable at ${visit.usableMs.toFixed(0)} ms\n${timeline(visit.requests)}`,
    ),
  );
  console.log(
    `[slow 3g] ${label}: usable p50 ${p50.toFixed(0)} ms, worst ${worst.toFixed(0)} ms over ${times.length} runs (${times.map((t) => t.toFixed(0)).join(", ")})`,
  );
  return { p50, worst };
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

describe("/home on Slow 3G", () => {
  const chromium = useBrowser();

  it(
    `a returning student can vote within ${BUDGET_MS / 1000} s (p50 of ${RETURNING_RUNS}); a first visit is printed`,
    { timeout: 600_000 },
    async () => {
      const student = await createStudent("+12027460101", {
        firstName: "Tess",
        gender: "female",
        colors: hueColors(280),
      });
      const loadBefore = loadAverage();

      const returning: Visit[] = [];
      for (let run = 0; run < RETURNING_RUNS; run++) {
        const context = await newPhone(chromium.browser, student);
        try {
          // The earlier visit, on a fast network: the service worker installs and takes the page over.
          const earlier = await context.newPage();
          await earlier.goto(`${baseURL}/home`, { waitUntil: "load" });
          await earlier
            .getByRole("button", { name: /^Vote for / })
            .first()
            .waitFor();
          await earlier.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
            timeout: 30_000,
          });
          await earlier.close();
          returning.push(await timedVisit(context));
        } finally {
          await context.close();
        }
      }

      const first: Visit[] = [];
      for (let run = 0; run < FIRST_VISIT_RUNS; run++) {
        const context = await newPhone(chromium.browser, student);
        try {
          first.push(await timedVisit(context, { emptyCache: true }));
        } finally {
          await context.close();
        }
      }

      console.log(`[slow 3g] load average before: ${loadBefore}; after: ${loadAverage()}`);
      const back = report("returning student", returning);
      report("first visit, empty cache", first);
      const met = back.p50 <= BUDGET_MS;
      console.log(
        `[slow 3g] budget: returning student usable ≤ ${BUDGET_MS} ms at p50: ${met ? "met" : "MISSED"} (p50 ${back.p50.toFixed(0)}, worst ${back.worst.toFixed(0)} ms)`,
      );

      for (const visit of returning) {
        // The shell came from the worker's cache, sooner than one round trip: none before the app ran.
        expect(visit.requests[0]).toMatchObject({ type: "navigation", fromWorker: true });
        expect(visit.requests[0]!.end).toBeLessThan(SLOW_3G.latency);
        // The screen's first calls left together: the round did not wait for the profile.
        expect(apiCalls(visit)[0]?.url.pathname).toMatch(/users\.me.*rounds\.open|rounds\.open.*users\.me/);
      }
      for (const visit of first) expect(apiCalls(visit)[0]?.url.pathname).toMatch(/rounds\.open/);
      // The network alone is 2 s a round trip; past 4 s at the median a round trip is back in the way.
      expect(back.p50, "returning student usable at p50 (ms)").toBeLessThanOrEqual(BUDGET_MS);
    },
  );
});

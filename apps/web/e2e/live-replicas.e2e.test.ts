import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { nginxBinary, startNginx } from "@quad/server/test/nginx";
import { freePort, stopProcess, waitUntilAnswering } from "@quad/server/test/processes";
import { LOCKED_NAME_PLACEHOLDER, SCREEN_TEXT } from "@quad/contracts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi, JUNIORS, openSignedIn, SENIORS } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { hueColors } from "./portrait";

/**
 * The open app is live across replicas: two server processes (the bundle
 * global-setup builds) on one Postgres database, behind nginx running
 * deploy/nginx.conf with only its upstream addresses and listen port
 * rewritten. The recipient's page goes through nginx; the voter's page
 * votes on one replica's own port, then on the other's, so whichever
 * replica nginx gave the recipient's stream, one of the two votes was
 * taken by the other process and reached it through LISTEN/NOTIFY.
 */

const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const SERVER_ENTRY = "apps/server/dist/bin/server.mjs";
const NGINX_CONF = resolve(REPO_ROOT, "deploy/nginx.conf");
const POSTGRES = "postgres://postgres@127.0.0.1:5432";
const JWT_SECRET = "live-replicas-e2e-secret-0123456789abcdef0123";

/** Runs one statement with psql on the machine's Postgres; false when psql or Postgres is missing. */
function psql(statement: string): boolean {
  const result = spawnSync("psql", [`${POSTGRES}/postgres`, "-v", "ON_ERROR_STOP=1", "-qAtc", statement], {
    encoding: "utf8",
    timeout: 10_000,
  });
  return result.status === 0;
}

const postgresReady = psql("select 1");
const skipReason = !postgresReady
  ? "needs Postgres at 127.0.0.1:5432 (user postgres, trust) and psql"
  : !nginxBinary
    ? "needs Debian's nginx (/usr/sbin/nginx: apt-get install nginx-light)"
    : undefined;

/** "See who voted for you" on home, with its "N new" badge. */
const entry = (page: Page) => page.getByRole("button", { name: /^See who voted for you/ });

describe.skipIf(skipReason !== undefined)(
  skipReason
    ? `live updates across two server processes behind nginx (skipped: ${skipReason})`
    : "live updates across two server processes behind nginx",
  () => {
    const chromium = useBrowser();
    const database = `quad_e2e_live_${process.pid}_${Date.now()}`;
    let workDir = "";
    const replicas: ChildProcess[] = [];
    let replicaURLs: string[] = [];
    let nginx: ChildProcess | undefined;
    let proxyURL = "";

    beforeAll(async () => {
      if (!psql(`create database ${database}`)) throw new Error(`could not create database ${database}`);
      workDir = await mkdtemp(join(tmpdir(), "quad-e2e-live-replicas-"));
      const artifacts = resolve(import.meta.dirname, "artifacts");
      await mkdir(artifacts, { recursive: true });
      const ports = [await freePort(), await freePort()];
      replicaURLs = ports.map((port) => `http://127.0.0.1:${port}`);
      // Neither an inherited DATABASE_URL nor Redis: this file's own database, each process's own limits.
      const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
      for (const [i, port] of ports.entries()) {
        const child = spawn(process.execPath, [SERVER_ENTRY], {
          cwd: REPO_ROOT,
          env: {
            ...inherited,
            HOST: "127.0.0.1",
            PORT: String(port),
            DATABASE_URL: `${POSTGRES}/${database}`,
            JWT_SECRET,
            // One directory for both, as the replicas share a media volume: a photo uploaded
            // through one is served by the other.
            DATA_DIR: workDir,
            NODE_ENV: "development",
            SEED_DEMO: "false",
            TRUST_PROXY: "true",
            JOBS_ENABLED: "false",
            LOG_LEVEL: "warn",
            // Votes delivered at once: what is measured is the way from one process to the other's stream.
            VOTE_DELIVERY_WINDOW_S: "0.001",
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        const log = createWriteStream(join(artifacts, `live-replica-${i + 1}.log`));
        child.stdout?.pipe(log);
        child.stderr?.pipe(log);
        replicas.push(child);
      }
      await Promise.all(replicaURLs.map((url, i) => waitUntilAnswering(`${url}/api/health`, replicas[i], 45_000)));

      const proxyPort = await freePort();
      proxyURL = `http://127.0.0.1:${proxyPort}`;
      nginx = await startNginx(
        NGINX_CONF,
        [
          ["server app1:3000", `server 127.0.0.1:${ports[0]}`],
          ["server app2:3000", `server 127.0.0.1:${ports[1]}`],
          ["listen 80;", `listen 127.0.0.1:${proxyPort};`],
        ],
        workDir,
      );
      await waitUntilAnswering(`${proxyURL}/api/health`, nginx, 10_000);
    }, 60_000);

    afterAll(async () => {
      await stopProcess(nginx);
      await Promise.all(replicas.map((replica) => stopProcess(replica)));
      if (workDir) await rm(workDir, { recursive: true, force: true });
      psql(`drop database if exists ${database} with (force)`);
    });

    it("a vote taken by either process shows on the recipient's home through nginx within 3 s, without a reload", async () => {
      // Arranged on the first replica: both read and write the one database.
      const { createStudent } = createApi(replicaURLs[0]!, "203.0.113.95");
      const student = (phone: string, firstName: string, gender: "male" | "female", hue: number) =>
        createStudent(phone, {
          firstName,
          gender,
          preference: gender === "male" ? "female" : "male",
          graduationYear: gender === "male" ? SENIORS : JUNIORS,
          colors: hueColors(hue),
        });
      const recipient = await student("+12025550951", "Rosalind", "female", 320);
      const voter = await student("+12025550952", "Barnaby", "male", 40);
      // A second of each, so both students' rounds have two to show.
      await student("+12025550953", "Clementine", "female", 160);
      await student("+12025550954", "Ignatius", "male", 220);

      // The recipient's phone, through nginx, home open and its stream open.
      const phone = await chromium.open("mobile", `${proxyURL}/terms`);
      // The one stream the recipient's page holds: were it reopened (perhaps on the other replica)
      // between the votes, each vote could have reached it from its own process.
      let streams = 0;
      phone.page.on("request", (request) => {
        if (request.url().includes("/api/trpc/live.events")) streams += 1;
      });
      const streamOpened = phone.page.waitForResponse(
        (response) => response.url().includes("/api/trpc/live.events") && response.status() === 200,
      );
      await openSignedIn(phone.page, proxyURL, recipient);
      await streamOpened;
      expect(await entry(phone.page).textContent()).toBe(SCREEN_TEXT.seeWhoVotedForYou);
      await animationsSettled(phone.page);
      await saveScreenshot(phone.page, "live-replicas-home-before-mobile");
      const loads: string[] = [];
      phone.page.on("framenavigated", (frame) => {
        if (frame === phone.page.mainFrame()) loads.push(frame.url());
      });

      // The voter's page, on each replica's own port in turn, votes for the recipient in its round.
      const laptop = await chromium.open("desktop", `${replicaURLs[0]}/terms`);
      const delays: number[] = [];
      for (const [i, replicaURL] of replicaURLs.entries()) {
        await openSignedIn(laptop.page, replicaURL, voter);
        const vote = laptop.page.getByRole("button", { name: `Vote for Rosalind` });
        await vote.waitFor();
        const stored = laptop.page.waitForResponse((response) => response.url().includes("/api/trpc/rounds.vote"));
        await vote.click();
        expect((await stored).status()).toBe(200);
        const voted = Date.now();
        await expect
          .poll(() => entry(phone.page).textContent(), { timeout: 3_000, interval: 50 })
          .toMatch(new RegExp(`${i + 1} new$`));
        delays.push(Date.now() - voted);
      }
      console.log(`[live-replicas] vote → recipient's badge, per replica: ${delays.join(" ms, ")} ms`);
      expect(loads).toEqual([]);
      expect(streams).toBe(1);
      await animationsSettled(phone.page);
      await saveScreenshot(phone.page, "live-replicas-home-after-mobile");

      // The inbox shows both cards, locked: nothing of the voter.
      await entry(phone.page).click();
      const list = phone.page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou, exact: true });
      await list.waitFor();
      await expect.poll(() => list.getByText(LOCKED_NAME_PLACEHOLDER).count()).toBe(2);
      expect(await list.getByText("Barnaby").count()).toBe(0);
      await animationsSettled(phone.page);
      await saveScreenshot(phone.page, "live-replicas-inbox-mobile");
      expect(phone.errors).toEqual([]);
      expect(laptop.errors).toEqual([]);
    });
  },
);

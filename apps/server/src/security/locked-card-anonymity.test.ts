import type { AddressInfo } from "node:net";
import { classYearsAt, MeUser, type VoteCard } from "@quad/contracts";
import { users, votes } from "@quad/db/schema";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processPhoto } from "../modules/users/photo";
import { createTestApp, type TestApp } from "../test/app";
import { bearer, proveSchoolEmail, signIn, testPhone } from "../test/auth";
import { multipartBody, portraitJpeg } from "../test/images";
import { receiveVotes } from "../test/votes";

/**
 * A locked vote card reveals nothing derived from its voter. The attack: a
 * recipient collects the public photos of their school (every round shows
 * two), runs the server's own open-source photo pipeline over them, and
 * compares what comes out with the image on a locked card; and compares
 * their locked cards with each other (or with a friend's) for a value one
 * voter's cards share. Everything the recipient reads goes over real HTTP,
 * REST and tRPC, the inbox and the export alike.
 */

type Rgb = readonly [number, number, number];
/** Distinct, vivid photos (none near the placeholder's pale lilac and pink). */
const PHOTOS: [Rgb, Rgb, Rgb][] = [
  [
    [220, 30, 30],
    [250, 170, 30],
    [70, 20, 10],
  ],
  [
    [20, 50, 210],
    [30, 190, 230],
    [250, 230, 210],
  ],
  [
    [20, 140, 50],
    [190, 230, 50],
    [60, 40, 20],
  ],
  [
    [250, 130, 0],
    [130, 20, 130],
    [255, 245, 230],
  ],
  [
    [15, 15, 15],
    [80, 80, 80],
    [235, 175, 140],
  ],
  [
    [0, 110, 110],
    [0, 60, 60],
    [250, 120, 170],
  ],
  [
    [70, 0, 100],
    [150, 0, 60],
    [255, 210, 0],
  ],
];

/**
 * Downscaled colour distance: 8×8 RGB, mean absolute difference per channel
 * (0–255). Measured on these photos: the old teaser of a photo is 25–40
 * from it, 48–132 from every other; the placeholder is 62 or more from all.
 */
const MATCH_BELOW = 45;
async function signature(image: Buffer): Promise<Buffer> {
  return sharp(image).resize(8, 8, { fit: "fill" }).flatten({ background: "#fff" }).removeAlpha().raw().toBuffer();
}
function distance(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** The teaser earlier versions rendered for locked cards (resize, blur, resize, JPEG): the matcher must find its owner. */
const oldTeaser = (photo: Buffer) =>
  sharp(photo).resize(48, 64).blur(6).resize(12, 16).jpeg({ quality: 60 }).toBuffer();

let t: TestApp;
let base: string;
let schoolId: number;
const students: { name: string; id: string; phone: string; headers: Record<string, string> }[] = [];
const byName = (name: string) => students.find((s) => s.name === name)!;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const [school] = (await (await fetch(`${base}/api/schools`)).json()) as { id: number; emailDomains: string[] }[];
  schoolId = school!.id;
  // Every student signs up through the real flow: their photo goes through the server's pipeline.
  const names = ["Vesper", "Wren", "Robin", "Rowan", "Sasha", "Tamsin", "Uma"];
  for (const [i, name] of names.entries()) {
    const phone = testPhone();
    const tokens = await signIn(t.app, phone, `10.9.0.${i + 1}`);
    const body = multipartBody(
      {
        firstName: name,
        university: String(schoolId),
        graduationYear: String(classYearsAt(new Date())[0]),
        gender: i % 2 ? "male" : "female",
        instagramHandle: `${name.toLowerCase()}.ig`,
      },
      { name: "me.jpg", type: "image/jpeg", data: await portraitJpeg(...PHOTOS[i]!) },
    );
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: { ...body.headers, ...bearer(tokens) },
      payload: body.payload,
      remoteAddress: `10.9.0.${i + 1}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = MeUser.parse(res.json().user);
    expect(me.isVerified).toBe(true);
    await proveSchoolEmail(
      t.app,
      bearer(tokens),
      `${name.toLowerCase()}@${school!.emailDomains[0]}`,
      `10.9.0.${i + 1}`,
    );
    students.push({ name, id: me.id, phone, headers: bearer(tokens) });
  }
  // Vesper votes for Robin twice (two prompts) and for Rowan once; Wren votes for both once.
  const vesper = byName("Vesper").id;
  const wren = byName("Wren").id;
  const at = new Date(Date.now() - 60_000);
  await receiveVotes(t, { recipientId: byName("Robin").id, voterIds: [vesper, wren], at });
  await receiveVotes(t, { recipientId: byName("Robin").id, voterIds: [vesper], at: new Date(at.getTime() + 5_000) });
  await receiveVotes(t, { recipientId: byName("Rowan").id, voterIds: [wren, vesper], at });
}, 60_000);
afterAll(() => t?.close());

/** Answers as sent, never parsed by a schema: parsing would strip the very fields this looks for. */
type Received = { votes: VoteCard[] } & { votesReceived: VoteCard[] };
const getJson = async (path: string, headers: Record<string, string>): Promise<Received> => {
  const res = await fetch(`${base}${path}`, { headers });
  expect(res.status, path).toBe(200);
  return (await res.json()) as Received;
};
const trpcQuery = async (procedure: string, input: unknown, headers: Record<string, string>): Promise<Received> => {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return ((await getJson(`/api/trpc/${procedure}${query}`, headers)) as unknown as { result: { data: Received } })
    .result.data;
};

/** Every locked card a recipient is shown, in every form: REST and tRPC inbox, REST and tRPC export. */
async function lockedCardsOf(name: string): Promise<{ via: string; card: VoteCard }[]> {
  const { headers } = byName(name);
  const views: [string, VoteCard[]][] = [
    ["REST inbox", (await getJson("/api/votes/for-user?limit=50", headers)).votes],
    ["tRPC inbox", (await trpcQuery("inbox.received", { limit: 50 }, headers)).votes],
    ["REST export", (await getJson("/api/users/export", headers)).votesReceived],
    ["tRPC export", (await trpcQuery("account.export", undefined, headers)).votesReceived],
  ];
  const cards = views.flatMap(([via, list]) => list.map((card) => ({ via: `${name}'s ${via}`, card })));
  for (const { via, card } of cards) expect(card.isUnlocked, via).toBe(false);
  return cards;
}

/** The image a card shows, as a browser would load it: a data URI decoded, a URL fetched from the server. */
async function imageOf(photo: string): Promise<Buffer> {
  if (photo.startsWith("data:")) {
    const comma = photo.indexOf(",");
    const body = photo.slice(comma + 1);
    return photo.slice(0, comma).endsWith(";base64")
      ? Buffer.from(body, "base64")
      : Buffer.from(decodeURIComponent(body));
  }
  const res = await fetch(new URL(photo, base));
  expect(res.status, photo).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The school's public photos as served, and every image the server's pipeline renders from each. */
async function publicImages() {
  const rows = await t.deps.db
    .select({ id: users.id, photoKey: users.photoKey })
    .from(users)
    .where(eq(users.schoolId, schoolId));
  const images: { owner: string; image: Buffer }[] = [];
  for (const row of rows) {
    const owner = students.find((s) => s.id === row.id)?.name ?? row.id;
    const served = await imageOf(`/api/media/${row.photoKey}`);
    images.push({ owner, image: served });
    for (const rendered of Object.values(await processPhoto(served))) images.push({ owner, image: rendered });
  }
  return images;
}

/** The owners of every public image within matching distance of `image` (or byte-identical to it), nearest first. */
async function matchesOf(image: Buffer, candidates: { owner: string; image: Buffer }[]): Promise<string[]> {
  const sig = await signature(image);
  const nearest = new Map<string, number>();
  for (const candidate of candidates) {
    const d = candidate.image.equals(image) ? 0 : distance(sig, await signature(candidate.image));
    if (d < MATCH_BELOW && d < (nearest.get(candidate.owner) ?? Infinity)) nearest.set(candidate.owner, d);
  }
  return [...nearest].sort((a, b) => a[1] - b[1]).map(([owner]) => owner);
}

describe("a locked card's image", () => {
  it("the matcher finds a voter from a blurred picture of their photo (it has teeth)", async () => {
    const candidates = await publicImages();
    expect(candidates.length).toBeGreaterThanOrEqual(PHOTOS.length * 2);
    for (const student of ["Vesper", "Wren"]) {
      const [photo] = await t.deps.db
        .select({ key: users.photoKey })
        .from(users)
        .where(eq(users.id, byName(student).id));
      const teaser = await oldTeaser(await imageOf(`/api/media/${photo!.key}`));
      expect((await matchesOf(teaser, candidates))[0]).toBe(student);
    }
  });

  it("matches no public photo of the school, nor anything the server's pipeline renders from one", async () => {
    const candidates = await publicImages();
    for (const recipient of ["Robin", "Rowan"]) {
      for (const { via, card } of await lockedCardsOf(recipient)) {
        expect(await matchesOf(await imageOf(card.photo), candidates), `${via}: ${card.photo.slice(0, 80)}`).toEqual(
          [],
        );
      }
    }
  });
});

describe("two locked cards of one voter", () => {
  it("share no value the voter's other cards or another voter's cards don't (id, image, anything but prompt and time)", async () => {
    const cast = await t.deps.db
      .select({ id: votes.id, voterId: votes.voterId })
      .from(votes)
      .where(inArray(votes.recipientId, [byName("Robin").id, byName("Rowan").id]));
    const voterOfVote = new Map(cast.map((vote) => [vote.id, vote.voterId]));
    const seen = [...(await lockedCardsOf("Robin")), ...(await lockedCardsOf("Rowan"))];
    // The card's id is the vote's id, never the voter's.
    for (const { via, card } of seen) {
      expect(voterOfVote.has(card.id), via).toBe(true);
      expect(
        students.map((s) => s.id),
        via,
      ).not.toContain(card.id);
    }
    const vesper = seen.filter(({ card }) => voterOfVote.get(card.id) === byName("Vesper").id);
    const wren = seen.filter(({ card }) => voterOfVote.get(card.id) === byName("Wren").id);
    expect(new Set(vesper.map(({ card }) => card.id)).size).toBe(3);
    expect(new Set(wren.map(({ card }) => card.id)).size).toBe(2);

    const linking: string[] = [];
    for (const a of vesper) {
      for (const b of vesper) {
        if (a.card.id === b.card.id) continue; // the same vote seen twice
        for (const [field, value] of Object.entries(a.card)) {
          if (field === "prompt" || field === "createdAt") continue;
          const shared = JSON.stringify(value) === JSON.stringify((b.card as Record<string, unknown>)[field]);
          // A value two of her cards share is fine only if every locked card carries it (a constant, not a pseudonym).
          const onEveryCard = wren.every(
            ({ card }) => JSON.stringify((card as Record<string, unknown>)[field]) === JSON.stringify(value),
          );
          if (shared && !onEveryCard)
            linking.push(`${field}: ${a.via} and ${b.via} share ${JSON.stringify(value).slice(0, 80)}`);
        }
      }
    }
    expect(linking).toEqual([]);
  });
});

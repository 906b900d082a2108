import { BOOST_WEIGHT } from "@quad/contracts";

/** One drawable student: just enough to weight and exclude, nothing to show. */
export interface PoolEntry {
  id: string;
  /** Epoch ms when the boost ends; 0 when never boosted. */
  boostEndsAt: number;
}

export type Random = () => number;

const weightOf = (entry: PoolEntry, now: number) => (entry.boostEndsAt > now ? BOOST_WEIGHT : 1);

/**
 * Draws `count` distinct entries, boosted ones BOOST_WEIGHT times as likely,
 * none of them excluded. Rejection sampling over the array costs O(1) per
 * draw when exclusions are few next to the pool, which is the common case on
 * a big campus; when they are many (a small pool) it falls back to an exact
 * weighted pick over the filtered list. Returns null when too few remain.
 */
export function drawWeighted(
  pool: readonly PoolEntry[],
  exclude: ReadonlySet<string>,
  count: number,
  now: number,
  random: Random,
): PoolEntry[] | null {
  const picked: PoolEntry[] = [];
  const taken = new Set<string>();
  const unavailable = (id: string) => exclude.has(id) || taken.has(id);
  for (let k = 0; k < count; k++) {
    let choice: PoolEntry | undefined;
    // Cheap path: random index, accept with probability weight / max weight.
    if (pool.length - exclude.size - taken.size >= 2 * count) {
      for (let tries = 0; tries < 64 && !choice; tries++) {
        const entry = pool[Math.floor(random() * pool.length)]!;
        if (!unavailable(entry.id) && random() * BOOST_WEIGHT < weightOf(entry, now)) choice = entry;
      }
    }
    // Exact path: weighted pick over what is left.
    if (!choice) {
      const left = pool.filter((entry) => !unavailable(entry.id));
      if (left.length === 0) return null;
      const total = left.reduce((sum, entry) => sum + weightOf(entry, now), 0);
      let target = random() * total;
      choice = left.find((entry) => (target -= weightOf(entry, now)) < 0) ?? left[left.length - 1]!;
    }
    picked.push(choice);
    taken.add(choice.id);
  }
  return picked;
}

/**
 * How many not-recently-shown students must stay in play. Two would satisfy
 * "no repeats while others are available" to the letter, but in a small pool
 * it locks the same pairs into a fixed cycle; four keeps pairings varied.
 */
const KEEP_IN_PLAY = 4;

/**
 * Draws a pair for a voter: never the voter or anyone blocked either way
 * (`always`), and not the recently shown (`recent`, newest first) while
 * others are available. On a big campus every recent id is simply excluded;
 * in a small pool the newest are excluded only as far as leaves enough in
 * play, so everyone comes round before anyone is shown again.
 */
export function drawPair(
  pool: readonly PoolEntry[],
  opts: { always: ReadonlySet<string>; recent: readonly string[]; now: number; random: Random },
): [PoolEntry, PoolEntry] | null {
  const exclude = new Set(opts.always);
  for (const id of opts.recent) exclude.add(id);
  const pair =
    pool.length - exclude.size >= 2 * KEEP_IN_PLAY ? drawWeighted(pool, exclude, 2, opts.now, opts.random) : null;
  if (pair) return [pair[0]!, pair[1]!];

  // Few left: exclude the most recently shown while enough stay in play,
  // and always include the one who has waited longest, so nobody starves.
  const lastShown = new Map<string, number>();
  opts.recent.forEach((id, index) => {
    if (!lastShown.has(id)) lastShown.set(id, index);
  });
  const alive = pool.filter((entry) => !opts.always.has(entry.id));
  if (alive.length < 2) return null;
  const waited = (entry: PoolEntry) => lastShown.get(entry.id) ?? Number.POSITIVE_INFINITY;
  const byWait = [...alive].sort((a, b) => waited(b) - waited(a));
  const inPlay = byWait.slice(0, Math.max(Math.min(KEEP_IN_PLAY, alive.length), alive.length - lastShown.size));
  const longest = inPlay.filter((entry) => waited(entry) === waited(inPlay[0]!));
  const first = longest[Math.floor(opts.random() * longest.length)]!;
  const second = drawWeighted(inPlay, new Set([first.id]), 1, opts.now, opts.random);
  return second ? [first, second[0]!] : null;
}

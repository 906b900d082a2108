import { z } from "zod";

/** Dates cross the wire as ISO strings: REST has no transformer, so tRPC doesn't either. */
export const IsoDateTime = z.iso.datetime({ offset: true });
export const Id = z.string().min(1).max(64);
/** A URL the browser can load: absolute, or a path under /api/media or a data: URI. */
export const MediaUrl = z.string().min(1);

/**
 * Numbers fit the columns they are stored in or compared with, so no input
 * reaches Postgres out of range (an error there would be a 500): ids of
 * serial columns, integer counts and cents, smallint years.
 */
export const INT4_MAX = 2_147_483_647;
export const SMALLINT_MAX = 32_767;
/** A row id of a serial (int4) column. */
export const SerialId = z.number().int().min(1).max(INT4_MAX);
/** A count, amount or number of seconds an int4 column holds. */
export const Int4Count = z.number().int().min(0).max(INT4_MAX);
/** A year as a smallint column holds it. */
export const SmallintYear = z.number().int().min(0).max(SMALLINT_MAX);

/** The answer of a write with nothing else to say. */
export const OkResult = z.object({ ok: z.literal(true) });

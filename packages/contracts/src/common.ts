import { z } from "zod";

/** Dates cross the wire as ISO strings: REST has no transformer, so tRPC doesn't either. */
export const IsoDateTime = z.iso.datetime({ offset: true });
export const Id = z.string().min(1).max(64);
/** A URL the browser can load: absolute, or a path under /api/media or a data: URI. */
export const MediaUrl = z.string().min(1);

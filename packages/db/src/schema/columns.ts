import { timestamp } from "drizzle-orm/pg-core";

/** Every timestamp is timestamptz read as a JS Date: instants, never wall-clock times. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const createdAt = () => timestamptz("created_at").notNull().defaultNow();

/** `$onUpdate` keeps updated_at current for updates made through Drizzle. */
export const updatedAt = () =>
  timestamptz("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

import path from "node:path";
import { E164PhoneSchema } from "@quad/contracts";
import { createDatabase, migrate } from "@quad/db";
import { adminAuditLog } from "@quad/db/schema";
import { loadConfig } from "../env";
import { grantAdmin } from "../modules/admin/service";

/**
 * `pnpm admin:grant +15555550123` in a checkout, `node dist/bin/admin-grant.mjs
 * +15555550123` in the image: makes that phone's account a moderator, on the
 * database the server's own configuration names. With the embedded database,
 * stop the server first (one process per data dir).
 */
async function main() {
  const phone = E164PhoneSchema.safeParse(process.argv[2]);
  if (!phone.success) {
    console.error("Usage: admin:grant +1XXXXXXXXXX (a phone in E.164 form)");
    process.exit(2);
  }
  const config = await loadConfig();
  const database = await createDatabase(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: path.join(config.dataDir, "pglite") },
  );
  try {
    await migrate(database.db);
    if (!(await grantAdmin(database.db, phone.data))) {
      console.error(`No account with the phone ${phone.data}. It must sign up first.`);
      process.exitCode = 1;
      return;
    }
    await database.db
      .insert(adminAuditLog)
      .values({ adminId: null, action: "grant_admin", targetUserId: null, details: { via: "cli" } });
    console.log(`${phone.data} is now an admin.`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

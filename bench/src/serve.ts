/**
 * The server the bench measures: the app exactly as `pnpm start` runs it
 * (apps/server/src/start.ts), plus the bench's ceiling routes (routes.ts).
 * build-server.mjs bundles it as the server's own build bundles the app.
 */
import { runServer } from "@quad/server/plugins";
import { registerBenchRoutes } from "./routes";

runServer({ plugins: [registerBenchRoutes] });

import { runServer } from "./start";

// `pnpm start` and `pnpm dev`: the app as deployed. Another entry can start it with routes of its own (bench/src/serve.ts).
runServer();

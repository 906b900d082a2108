import { config } from "zod";

/**
 * zod compiles object parsers with `new Function` when the page allows eval.
 * The CSP allows none (docs/decisions/0012-security-headers.md), and merely
 * probing for it is reported as a violation, so zod is told not to try. It
 * reads this when each schema is built: main.tsx imports this module first.
 */
config({ jitless: true });

/** What the web client imports: the router's type only, never its code. */
export type { AppRouter } from "./root";

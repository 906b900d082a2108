// Types of bundle.mjs, for the TypeScript that calls it (tracing/off.test.ts).
export function bundleServer(options: { entry: string; outdir: string }): Promise<void>;

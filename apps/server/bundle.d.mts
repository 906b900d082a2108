/** Bundles each entry (name → source file) into <outdir>/bin/<name>.mjs, with the migrations in <outdir>/drizzle. */
export function bundleServer(options: { entries: Record<string, string>; outdir: string }): Promise<void>;

import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

/**
 * Heavy, rarely needed libraries get their own named chunks. They are only
 * reached through dynamic imports (React.lazy pages, lazy SDK loaders), so
 * naming them keeps them out of the first page and gives them stable,
 * separately cached files.
 */
const lazyVendorChunks: { name: string; test: RegExp }[] = [
  { name: "firebase", test: /[\\/]node_modules[\\/](@firebase|firebase)[\\/]/ },
  { name: "stripe", test: /[\\/]node_modules[\\/]@stripe[\\/]/ },
  { name: "cropper", test: /[\\/]node_modules[\\/](cropperjs|react-cropper)[\\/]/ },
];

/**
 * The web app manifest and the service worker (sw/service-worker.ts). The
 * plugin compiles the worker; its precache list is injected by
 * scripts/precache.mjs once the build has written every file (icons, the
 * prerendered index.html, app.html). The page registers the worker itself
 * (src/lib/service-worker.ts), after it has loaded.
 */
const pwa = VitePWA({
  strategies: "injectManifest",
  srcDir: "sw",
  filename: "service-worker.ts",
  injectRegister: false,
  injectManifest: { injectionPoint: undefined, minify: true, sourcemap: false },
  manifest: {
    id: "/",
    name: "Quad",
    short_name: "Quad",
    description: "Vote on your classmates and find out who voted for you.",
    start_url: "/home",
    scope: "/",
    display: "standalone",
    orientation: "portrait",
    theme_color: "#7c3aed",
    background_color: "#ffffff",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  },
});

/**
 * Link previews (Open Graph, X) need absolute addresses: og:url and the share
 * image are written from PUBLIC_URL, the server's own setting, when the HTML
 * is built (`%PUBLIC_URL%` in index.html). Without it, the development
 * address stands in.
 */
const publicUrl = (process.env.PUBLIC_URL?.trim() || "http://localhost:5173").replace(/\/+$/, "");
const absoluteShareTags = {
  name: "quad-absolute-share-tags",
  transformIndexHtml: (html: string) => html.replaceAll("%PUBLIC_URL%", publicUrl),
};

export default defineConfig({
  plugins: [react(), pwa, absoluteShareTags],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      "/api": { target: "http://127.0.0.1:3000", changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      "/api": { target: "http://127.0.0.1:3000", changeOrigin: false },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // @quad/contracts is pure declarations; saying so lets the bundler drop the
      // modules (and their zod schemas) that the first page never uses.
      treeshake: {
        moduleSideEffects: (id) => !/[\\/]packages[\\/]contracts[\\/]src[\\/]/.test(id),
        // Building a zod schema has no side effects; unused schemas can go.
        manualPureFunctions: ["z"],
      },
      output: {
        codeSplitting: {
          groups: [
            ...lazyVendorChunks.map((group) => ({ ...group, priority: 20 })),
            // TanStack Query + tRPC: loaded with the first screen that talks to the server.
            { name: "data-layer", test: /[\\/]node_modules[\\/](@tanstack|@trpc)[\\/]/, priority: 15 },
            // React, the router and the data layer change rarely: one cacheable
            // chunk that every page needs anyway. Highest priority: a group takes
            // its modules' dependencies along, so the lazy groups above (Stripe's
            // React bindings, TanStack Query) would otherwise capture React and
            // drag their chunk, and its side effects, onto the first page.
            {
              name: "vendor",
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|zustand)[\\/]/,
              tags: ["$initial"],
              priority: 30,
            },
          ],
        },
      },
    },
  },
});

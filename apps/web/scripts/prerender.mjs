#!/usr/bin/env node
// Writes the landing page's HTML into the built index.html (run after the
// client build and the SSR build of src/prerender.tsx). On a slow phone the
// page then paints with the HTML, not after the JavaScript (docs/performance.md: LCP).
// The untouched shell is kept as app.html: the server answers every other
// route with it, so /login never flashes the landing page.
//
//   node scripts/prerender.mjs
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const ssrDir = fileURLToPath(new URL("../dist-ssr/", import.meta.url));
const ROOT = '<div id="root"></div>';

const shell = readFileSync(`${dist}index.html`, "utf8");
if (!shell.includes(ROOT)) throw new Error(`prerender: ${ROOT} not found in dist/index.html`);

const { renderLandingPage, SESSION_STORAGE_KEY } = await import(`${ssrDir}prerender.js`);
const landing = renderLandingPage();

// A signed-in visitor is sent on from / at once: hide the static landing for them
// before the first paint (the app replaces #root's content either way).
// (The session store persists {state: {token, ...}} under SESSION_STORAGE_KEY.)
const signedInGuard = `<script>try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(SESSION_STORAGE_KEY)})||"null");if(s&&s.state&&s.state.token)document.documentElement.setAttribute("data-signed-in","")}catch(e){}</script><style>[data-signed-in] [data-prerendered]{display:none}</style>`;

writeFileSync(`${dist}app.html`, shell);
writeFileSync(
  `${dist}index.html`,
  shell
    .replace("</head>", `    ${signedInGuard}\n  </head>`)
    .replace(ROOT, `<div id="root"><div data-prerendered>${landing}</div></div>`),
);
rmSync(ssrDir, { recursive: true, force: true });
console.log(`prerendered / into dist/index.html (${landing.length} characters); dist/app.html is the plain shell`);

# The app image: SPA + API on $PORT, as `pnpm start` runs them. Two stages:
# `build` installs the whole workspace (dev dependencies included), builds the
# web client and the server bundle and gathers the server's production
# dependencies; the final stage holds only what `node dist/bin/server.mjs`
# reads at runtime and runs it as the unprivileged `node` user.
# Only classic-builder features (no RUN --mount, COPY --link): Debian's
# docker.io/docker-compose, which deploy/offline-images/compose-check.sh uses,
# build without BuildKit.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm i -g pnpm@10.34.9
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json turbo.json tsconfig.base.json ./
COPY tooling ./tooling
# pnpm applies patches/ (patchedDependencies in pnpm-workspace.yaml) while installing.
COPY patches ./patches
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/db/package.json packages/db/
COPY packages/trpc-fastify-single-call/package.json packages/trpc-fastify-single-call/
RUN pnpm install --frozen-lockfile
COPY . .
# The share tags' absolute addresses are written into the HTML at build time (apps/web/vite.config.ts):
# `docker build --build-arg PUBLIC_URL=https://quad.example.edu .`; unset, they name the development address.
ARG PUBLIC_URL
RUN pnpm build
# The server's production dependencies as a self-contained node_modules:
# `pnpm deploy` takes them from the lockfile (its own lockfile for the server,
# cut from the workspace's) and the store the install above filled, so no
# resolution and no download, patches applied. The bundle (apps/server/bundle.mjs)
# inlines the @quad/* workspace packages and leaves every npm package external:
# fastify, drizzle-orm, postgres, sharp (a native module; its linux binary is
# its optional dependency), the embedded PGlite, ...
# pnpm 10's deploy needs inject-workspace-packages (set here, for the deploy
# only; `--legacy` instead resolves the workspace packages' dependencies again).
# typescript is only there as @trpc/server's (type-level) peer dependency and
# nothing loads it at runtime: dropped, and the links to it with it.
# Then check that the patched dependencies really ship patched.
RUN pnpm --config.inject-workspace-packages=true --filter @quad/server deploy --prod --offline /prod \
 && rm -rf /prod/node_modules/.pnpm/typescript@* \
 && find /prod/node_modules -xtype l -delete \
 && node deploy/check-shipped-patches.mjs /prod/node_modules pnpm-workspace.yaml

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
# The workspace's layout, so the bundle finds what it reads from disk the way
# it does in the repository: dist/drizzle (the migrations build.mjs copies next
# to the bundle, packages/db/src/migrate.ts) and ../../../web/dist seen from
# dist/bin (the built SPA, apps/server/src/web-dist.ts). Owned by root: the
# server cannot change its own code.
WORKDIR /app/apps/server
COPY --from=build /prod/package.json ./
COPY --from=build /prod/node_modules ./node_modules
COPY --from=build /app/apps/server/dist ./dist
COPY --from=build /app/apps/web/dist /app/apps/web/dist
# $DATA_DIR (uploaded media; PGlite when there is no DATABASE_URL) is the only
# place the server writes. The compose file mounts the `media` volume here; a
# new named volume takes this directory's owner (node). A volume created by an
# older image that ran as root needs `chown -R 1000:1000` once.
RUN mkdir -p /data && chown node:node /data
# The image's `node` user (uid 1000), numeric so runtimes can tell it is not root.
USER 1000:1000
EXPOSE 3000
# The server itself is PID 1 and gets SIGTERM (under pnpm, pnpm exited on it
# and the server was killed without its graceful shutdown).
CMD ["node", "dist/bin/server.mjs"]

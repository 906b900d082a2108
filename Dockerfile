# One image for the app: builds the web client and the server bundle, then
# runs the server (SPA + API on $PORT), as `pnpm start` does.
FROM node:20-bookworm-slim
WORKDIR /app
RUN npm i -g pnpm@10.34.9
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json turbo.json tsconfig.base.json ./
COPY tooling ./tooling
# pnpm applies patches/ (the postgres.js queue fix) while installing.
COPY patches ./patches
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/db/package.json packages/db/
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
EXPOSE 3000
# `pnpm start`'s command, run directly: the server is PID 1 and gets SIGTERM
# itself (under pnpm, pnpm exited on it and the server was killed without its
# graceful shutdown).
WORKDIR /app/apps/server
CMD ["node", "dist/bin/server.mjs"]

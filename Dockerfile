# syntax=docker/dockerfile:1
# The API (and the admin CLI) in a small production image. Build stage: everything needed to
# compile, including the C++ tool chain for better-sqlite3; runtime stage: production
# dependencies and dist/ only, run by the unprivileged `node` user.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary fits.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# The project's npm (its "allowScripts" decides which install scripts may run).
RUN npm install -g npm@11 --no-audit --no-fund
COPY package.json package-lock.json ./
# The workspace's manifest, which the lock file names (its sources are not part of the image).
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --no-audit --no-fund
COPY nest-cli.json tsconfig.json ./
COPY apps ./apps
COPY libs ./libs
# The API and the admin CLI (dist/apps/api/..., dist/apps/cli/...), then drop dev dependencies.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# Every interface: the container's own loopback is out of reach of the host's port mapping (the
# API alone defaults to 127.0.0.1, decision 0046).
ENV HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Writable only where the app writes (the SQLite file when DB_TYPE=sqlite).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Ready = GET /api/health answers 200 (database up). Migrations run at start-up, before listening.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "require('http').get({host:'127.0.0.1',port:process.env.PORT||3000,path:'/api/health',timeout:4000},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# `npm run start:prod`'s command, Node's flags included (none: bench/HISTORY.md, twelfth round).
CMD ["node", "dist/apps/api/apps/api/src/main.js"]

# The GitHub App as a container image (docs/containers.md): `docker run ghcr.io/OWNER/agent-run-bridge:0.1.0`.
# NODE_IMAGE lets a build start from a local copy of the base image (the image test builds where no registry is reachable).
ARG NODE_IMAGE=node:24-bookworm-slim

# What the App runs on: the production dependencies and the App's optional peers at their locked versions, with
# better-sqlite3 compiled here when no prebuilt binary can be downloaded. The compilers stay in this stage, and so do
# the packages' type declarations and source maps, which Node never reads: more than half of node_modules' bytes.
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# node-gyp compiles against the image's own Node headers instead of downloading them.
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/image-manifest.mjs /tmp/image-manifest.mjs
RUN node /tmp/image-manifest.mjs \
  && npm install --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && cd node_modules/better-sqlite3 \
  && mv build/Release/better_sqlite3.node /tmp/ \
  && rm -rf build deps src \
  && mkdir -p build/Release \
  && mv /tmp/better_sqlite3.node build/Release/ \
  && cd /app \
  && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete

# The library compiled from src/ (lib/), without declarations and source maps, which nothing in the image reads.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY scripts/image-manifest.mjs /tmp/image-manifest.mjs
RUN node /tmp/image-manifest.mjs --build && npm install --omit=dev --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json && find lib \( -name '*.d.ts' -o -name '*.map' \) -delete

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
  DATA_DIR=/data
WORKDIR /app
COPY package.json LICENSE ./
COPY bin ./bin
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/lib ./lib
# Created and handed to the node user before VOLUME: changes to a path after VOLUME are discarded.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# The slim image has no curl: Node asks /healthz on the port the App listens on.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "require('node:http').get({ host: '127.0.0.1', port: process.env.PORT || 3000, path: '/healthz', timeout: 4000 }, (res) => process.exit(res.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1)).on('timeout', () => process.exit(1))"]
# Node itself is PID 1 (exec form), so SIGTERM reaches the App, which stops taking webhooks, lets the work in flight
# settle and exits. The heap flags are the README's (`npm start`). Other arguments run the CLI instead of the App:
# `docker run --rm -e AGENT_RUN_API_URL=… -e AGENT_RUN_API_TOKEN=… -e AGENT_RUN_ORG_ID=42 ghcr.io/OWNER/agent-run-bridge:0.1.0 get 1842`.
ENTRYPOINT ["node", "--max-semi-space-size=4", "--max-old-space-size=512", "/app/bin/agent-run.js"]
CMD ["app"]

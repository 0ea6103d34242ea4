# The compiled server on Node 20. Built in one stage with every dependency; run in
# another with the production dependencies only, as the unprivileged user `node`.
# test/ops/build-steps.test.ts runs these same steps (npm ci, npm run build,
# npm ci --omit=dev, the CMD) in a clean copy of the repository and checks /readyz.
#   docker build -t hoshi .
#   docker run -p 8080:8080 -v hoshi-data:/data -e REQUEST_HASH_SALT=… -e SEED_SECRET=… hoshi
# or, with PostgreSQL: docker compose up (compose.yaml).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY core core
# adapters/ holds the console's static files too; the build copies them into dist/.
COPY adapters adapters
COPY client client
COPY toolkit toolkit
COPY scripts scripts
COPY fixtures fixtures
RUN npm run build

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
COPY fixtures fixtures
# The JSON-file store's directory, owned by the user the server runs as (unused with DATABASE_URL).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Ready: the storage takes writes, the master data is loaded, the server is not stopping.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 8080}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The exec form, no shell and no npm: node is PID 1 and receives SIGTERM itself; it stops
# accepting, finishes the requests in flight and writes the snapshots (SHUTDOWN_GRACE_SECONDS).
STOPSIGNAL SIGTERM
CMD ["node", "dist/adapters/http/main.js"]

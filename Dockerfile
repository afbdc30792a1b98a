# Cairn's server for teams that self-host: `cairn serve` (REST, MCP over HTTP, the board) on Node 24.
# Build: docker build -t cairn .   Run with PostgreSQL and two replicas: compose.yaml (docs/operations.md).
FROM node:24-bookworm-slim AS build
# better-sqlite3 compiles from source where no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# npm ci runs `prepare` (the build); the dev dependencies go once it is done.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/bin ./bin
COPY --from=build /src/dist ./dist
COPY --from=build /src/node_modules ./node_modules
# A SQLite workspace lives in /data unless CAIRN_DB names a PostgreSQL database.
RUN mkdir -p /data/.cairn && chown -R node:node /data
USER node
VOLUME /data
ENV CAIRN_DB=/data/.cairn/cairn.db
EXPOSE 7420
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:7420/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/cairn.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "7420"]

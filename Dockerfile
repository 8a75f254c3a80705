# syntax=docker/dockerfile:1
# Build stage: install with Bun and compile the single executable (UI + migrations embedded).
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run compile

# Runtime: a slim Debian with only the executable, running as a non-root user.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl tini \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --home /data dibs \
  && mkdir -p /data && chown dibs /data && chmod 700 /data
COPY --from=build /app/dist/dibs /usr/local/bin/dibs
ENV DATA_DIR=/data PORT=3000 HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 3000
USER dibs
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD curl -fsS http://127.0.0.1:3000/healthz || exit 1
# tini is PID 1 and forwards SIGTERM/SIGINT to dibs, which shuts down within 10 s.
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/dibs"]
CMD ["serve"]

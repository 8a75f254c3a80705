# syntax=docker/dockerfile:1
# Build stage: install with Bun and compile the single executable (UI + migrations embedded).
FROM oven/bun:1.4.5 AS build
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run compile

# Runtime: a slim Debian with only the executable, running as a non-root user. No curl: the
# health check is the program itself (`dibs healthcheck`). ca-certificates stays (TLS to Reddit,
# Stripe, SMTP and push services); tini is PID 1 and forwards SIGTERM/SIGINT to dibs, which shuts
# down within 10 s. apt's lists, caches and docs are removed in the same layer.
FROM debian:bookworm-slim
RUN apt-get -o DPkg::Lock::Timeout=600 update \
  && apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends ca-certificates tini \
  && apt-get clean \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log /usr/share/doc/* /usr/share/man/* /usr/share/info/* \
  && useradd --system --uid 10001 --home /data dibs \
  && mkdir -p /data && chown dibs /data && chmod 700 /data
COPY --from=build /app/dist/dibs /usr/local/bin/dibs
ENV DATA_DIR=/data PORT=3000 HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 3000
USER dibs
# GET http://127.0.0.1:$PORT/readyz (or /healthz on a server without it) with a 4 s timeout.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["/usr/local/bin/dibs", "healthcheck"]
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/dibs"]
CMD ["serve"]

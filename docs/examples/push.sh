#!/usr/bin/env bash
# Push posts to a Dibs push source: DIBS_INGEST_URL=<ingest URL> DIBS_SECRET=<secret> ./push.sh posts.json
set -euo pipefail
body=$(cat "${1:-/dev/stdin}")  # {"posts": [{"id", "title", "url", "author", "created_utc", "body"?, "flair"?}]}
t=$(date +%s)
sig=$(printf '%s.%s' "$t" "$body" | openssl dgst -sha256 -hmac "$DIBS_SECRET" -r | cut -d' ' -f1)
curl -sS --fail-with-body -X POST "$DIBS_INGEST_URL" \
  -H 'Content-Type: application/json' \
  -H "X-Dibs-Signature: t=$t,v1=$sig" \
  --data-binary "$body"

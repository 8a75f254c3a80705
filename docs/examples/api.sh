#!/usr/bin/env bash
# Your terms and matches from a script: DIBS_URL=https://dibs.example.com DIBS_TOKEN=dibs_pat_… ./api.sh
set -euo pipefail
auth="Authorization: Bearer $DIBS_TOKEN"
# 1. your WTS search terms
curl -sS --fail-with-body -w '\n' "$DIBS_URL/api/terms?category=wts" -H "$auth"
# 2. add a term (a token with the write scope); it matches the last 7 days of posts at once
curl -sS --fail-with-body -w '\n' -X POST "$DIBS_URL/api/terms" -H "$auth" \
  -H 'Content-Type: application/json' --data '{"category": "wts", "term": "aimpoint t-2"}'
# 3. your WTS matches, newest first
curl -sS --fail-with-body -w '\n' "$DIBS_URL/api/matches?category=wts&limit=20" -H "$auth"

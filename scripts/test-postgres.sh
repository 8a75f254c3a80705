#!/usr/bin/env bash
# `bun run test:postgres`: the suites of tests/postgres-suites.txt again, on PostgreSQL (DIBS_TEST_ENGINE=postgres:
# tests/engine.ts gives every makeDeps and test server a database of its own on one throwaway server).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-test-packages.sh
mapfile -t suites < <(grep -vE '^\s*(#|$)' tests/postgres-suites.txt)
DIBS_TEST_ENGINE=postgres exec bun test --timeout 30000 "${suites[@]}"

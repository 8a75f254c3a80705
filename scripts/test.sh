#!/usr/bin/env bash
# `bun run test`: Chromium when missing (scripts/ensure-chromium.sh), then every suite as two
# `bun test` processes side by side, so both cores work while the browser suites wait on Chromium
# and their servers: the browser suites (tests/e2e) in one, tests/unit, tests/ui and tests/api in
# the other. (Moving browser suites into the second half was measured no faster: two Chromiums at
# once contend for the cores.) The second's report is printed after the first's; the exit code is
# non-zero when either fails. With arguments (`bun run test tests/api/terms.test.ts`) it runs just those.
set -uo pipefail
bash scripts/ensure-chromium.sh || exit 1
if [ "$#" -gt 0 ]; then exec bun test --timeout 30000 "$@"; fi
report=$(mktemp)
bun test --timeout 30000 tests/unit tests/ui tests/api >"$report" 2>&1 &
rest=$!
bun test --timeout 30000 tests/e2e
browser=$?
wait "$rest"
others=$?
echo
echo "── tests/unit, tests/ui, tests/api ──"
cat "$report"
rm -f "$report"
echo "browser suites (tests/e2e): exit $browser · tests/unit, tests/ui, tests/api: exit $others"
[ "$browser" -eq 0 ] && [ "$others" -eq 0 ]

#!/usr/bin/env bash
# `bun run test`: Chromium when missing (scripts/ensure-chromium.sh), then every suite as two
# `bun test` processes side by side, so both cores work while the browser suites wait on Chromium
# and their servers: most browser suites (tests/e2e) in one; tests/unit, tests/ui, tests/api and the
# browser suites in SHARED (chosen so that both halves take about as long) in the other. The
# second's report is printed after the first's; the exit code is non-zero when either fails. With
# arguments (`bun run test tests/api/terms.test.ts`) it runs just those.
set -uo pipefail
bash scripts/ensure-chromium.sh || exit 1
if [ "$#" -gt 0 ]; then exec bun test --timeout 30000 "$@"; fi
SHARED=(tests/e2e/a11y.test.ts tests/e2e/landing.test.ts tests/e2e/admin-users.test.ts)
browser_files=()
for f in tests/e2e/*.test.ts; do
  case " ${SHARED[*]} " in *" $f "*) ;; *) browser_files+=("$f") ;; esac
done
report=$(mktemp)
bun test --timeout 30000 tests/unit tests/ui tests/api "${SHARED[@]}" >"$report" 2>&1 &
rest=$!
bun test --timeout 30000 "${browser_files[@]}"
browser=$?
wait "$rest"
others=$?
echo
echo "── tests/unit, tests/ui, tests/api, ${SHARED[*]} ──"
cat "$report"
rm -f "$report"
echo "browser suites: exit $browser · the rest: exit $others"
[ "$browser" -eq 0 ] && [ "$others" -eq 0 ]

#!/usr/bin/env bash
# `bun run test`: Chromium and PostgreSQL when missing (scripts/ensure-test-packages.sh), then every suite as two
# `bun test` processes side by side, so both cores work while the browser suites wait on Chromium
# and their servers: most browser suites (tests/e2e) in one, tests/unit, tests/ui and tests/api and
# the two admin browser suites in the other. The second's report is printed after the first's; the exit code is
# non-zero when either fails. With arguments (`bun run test tests/api/terms.test.ts`) it runs just those.
set -uo pipefail
bash scripts/ensure-test-packages.sh || exit 1
# Browser journeys get 90 s before they count as hung (tests/e2e/browser.ts), the rest 30 s.
if [ "$#" -gt 0 ]; then
  case " $* " in *e2e*) exec bun test --timeout 90000 "$@" ;; *) exec bun test --timeout 30000 "$@" ;; esac
fi
# Two browser suites ride with the second process, after its own files: it finishes minutes before the
# browser half otherwise, and the browser suites mostly wait (on Chromium and their servers), not compute.
late=(tests/e2e/admin-dashboard.test.ts tests/e2e/admin-data.test.ts)
early=()
for f in tests/e2e/*.test.ts; do [[ " ${late[*]} " == *" $f "* ]] || early+=("$f"); done
report=$(mktemp)
browser_report=$(mktemp)
bun test --timeout 30000 tests/unit tests/ui tests/api "${late[@]}" >"$report" 2>&1 &
rest=$!
bun test --timeout 90000 "${early[@]}" 2>&1 | tee "$browser_report"
browser=${PIPESTATUS[0]}
wait "$rest"
others=$?
echo
echo "── tests/unit, tests/ui, tests/api, ${late[*]} ──"
cat "$report"
# CI shows only the end of a long log: name every failure (and the error just before it) last.
if [ "$browser" -ne 0 ] || [ "$others" -ne 0 ]; then
  echo
  echo "── failures ──"
  for f in "$browser_report" "$report"; do
    grep -n -B 12 -E '^\(fail\)' "$f" | grep -vE '^[0-9]+-\(pass\)' | tail -n 200
    grep -nE '^error:|Unhandled error|^# Unhandled' "$f" | head -n 20
  done
fi
rm -f "$report" "$browser_report"
echo "browser suites (tests/e2e): exit $browser · tests/unit, tests/ui, tests/api and the admin browser suites: exit $others"
[ "$browser" -eq 0 ] && [ "$others" -eq 0 ]

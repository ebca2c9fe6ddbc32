#!/usr/bin/env bash
# Runs the whole test suite: type check, lint (ESLint) and format check (Prettier), then every test file with
# node's test runner.
# Needs the local PostgreSQL (DATABASE_URL_TEST, default postgres://postgres@127.0.0.1:5432/test)
# and Chromium for the browser engines (CHROMIUM_PATH, default /usr/bin/chromium): installed from
# Debian's packages here when missing, since nothing downloads a browser.
#
# Test files run TEST_CONCURRENCY at a time (default 2). Each file is a process of its own with its
# own SQLite directories, PostgreSQL schemas and ports, so files cannot see one another. On 2 cores
# two at a time took 396 s where one at a time took over 600 s (many tests wait on timers and
# sockets, not the CPU); 3 at a time starved the tests whose bounds are wall-clock budgets of the
# service itself (extraction time budgets, page leases during an outage).
set -euo pipefail
cd "$(dirname "$0")/.."
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium missing at $chromium_path: installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get install -y -qq chromium >/dev/null || { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq chromium >/dev/null; }
fi
# Firecrawl's clients, which test/clients/firecrawl/ drives, have an install of their own: they declare Node.js 22, so
# keeping them out of the service's package.json keeps its `npm ci` free of EBADENGINE warnings (they run on 20).
clients=test/clients/firecrawl
if ! cmp -s "$clients/package-lock.json" "$clients/node_modules/.installed-lock.json" 2>/dev/null; then
  (cd "$clients" && npm ci --no-audit --no-fund --loglevel=error >/dev/null && cp package-lock.json node_modules/.installed-lock.json)
fi
npx tsc -p tsconfig.json --noEmit
npx eslint --max-warnings=0 .
npx prettier --check --log-level=warn .

mapfile -t files < <(find test -name '*.test.ts' -not -path '*/node_modules/*' | sort)
exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" --test-reporter=spec "${files[@]}"

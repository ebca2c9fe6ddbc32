#!/usr/bin/env bash
# Runs the whole test suite: type check, then every test file with node's test runner.
# Needs the local PostgreSQL (DATABASE_URL_TEST, default postgres://postgres@127.0.0.1:5432/test)
# and Chromium for the browser engines (CHROMIUM_PATH, default /usr/bin/chromium): installed from
# Debian's packages here when missing, since nothing downloads a browser.
#
# Test files run side by side, TEST_CONCURRENCY at a time (default 3: on 2 cores most files spend
# much of their time waiting on timers, sockets and child processes). Each file is a process of
# its own with its own SQLite directories, PostgreSQL schemas and ports, so files cannot see one
# another. TEST_CONCURRENCY=1 runs them one after another.
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
npx tsc -p tsconfig.json --noEmit

mapfile -t files < <(find test -name '*.test.ts' | sort)
exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-3}" --test-reporter=spec "${files[@]}"

#!/usr/bin/env bash
# Runs the whole test suite: type check, then every test file with node's test runner.
# Needs the local PostgreSQL (DATABASE_URL_TEST, default postgres://postgres@127.0.0.1:5432/test).
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.json --noEmit
mapfile -t files < <(find test -name '*.test.ts' | sort)
exec node --import tsx --test --test-reporter=spec "${files[@]}"

#!/usr/bin/env bash
# Runs the benchmarks and prints their results; docs/perf.md records them.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -run '^$' -bench . -benchtime "${BENCHTIME:-1x}" -timeout 30m ./test/bench/... | tee _output/bench.txt

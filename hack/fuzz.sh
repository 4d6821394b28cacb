#!/usr/bin/env bash
# Runs every fuzz target (func FuzzXxx) of both modules, one at a time, for
# FUZZTIME each: make fuzz FUZZTIME=10m. FUZZPARALLEL sets the workers per
# target (default: go's, one per CPU). A crasher is written to the target's
# testdata/fuzz/<FuzzXxx>/ and fails the run: fix it and commit the file,
# which then runs as a test in every plain go test (make test runs the
# committed corpus of every target that way, without fuzzing).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-${1:-10s}}
GO=${GO:-go}
par=()
if [[ -n "${FUZZPARALLEL:-}" ]]; then par=(-parallel "$FUZZPARALLEL"); fi
failed=0
# targets lists "<package dir> <target>" for the module in the current directory.
targets() {
	grep -rl --include='*_test.go' --exclude-dir=staging --exclude-dir=_output '^func Fuzz' . |
		xargs -n1 dirname | sort -u | while read -r dir; do
			for name in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go | cut -d' ' -f2); do
				echo "$dir $name"
			done
		done
}
for module in . staging; do
	while read -r dir name; do
		echo "== $module/${dir#./} $name ($FUZZTIME)"
		if ! (cd "$module" && $GO test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "${par[@]}" "$dir"); then
			failed=1
		fi
	done < <(cd "$module" && targets)
done
exit "$failed"

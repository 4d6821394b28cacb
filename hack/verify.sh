#!/usr/bin/env bash
# Checks that CI and reviewers rely on: formatting, vet, the dependency
# direction between modules and packages, and generated code being fresh.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0

bad=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$bad" ]; then
	echo "not gofmt-formatted:"; echo "$bad"; fail=1
fi

go vet ./... || fail=1
(cd staging && go vet ./...) || fail=1

# staging/ must not import the root module.
if grep -rn --include='*.go' '"platform.io/platform/' staging/ ; then
	echo "staging/ imports platform.io/platform: forbidden"; fail=1
fi
# Scheduler, controllers and the metrics server must not import the API server.
for dir in pkg/scheduler pkg/controller pkg/cloudprovider pkg/metricsserver cmd/scheduler cmd/controller-manager cmd/cloud-controller-manager cmd/metrics-server; do
	[ -d "$dir" ] || continue
	if grep -rn --include='*.go' '"platform.io/platform/pkg/apiserver' "$dir"; then
		echo "$dir imports pkg/apiserver: forbidden"; fail=1
	fi
done

# The flag reference (docs/flags) must match the daemons' flags; this
# catches a stale file even when the tree has other uncommitted changes.
go run ./hack/flagdocs -verify || fail=1

# Generated code must be up to date.
before=$(git status --porcelain)
make -s generate >/dev/null
after=$(git status --porcelain)
if [ "$before" != "$after" ]; then
	echo "generated code is stale: run make generate and commit the result"
	git status --porcelain; fail=1
fi

exit $fail

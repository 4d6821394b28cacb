# The control plane's build, test and run entry points. See README.md.
GO        ?= go
OUT       := _output
BIN       := $(OUT)/bin
# Every daemon whose cmd/<name>/main.go exists is built as platform-<name>.
DAEMONS   := $(patsubst cmd/%/main.go,%,$(wildcard cmd/*/main.go))
# Test tools the e2e suite and make run use, built beside the daemons.
TOOLS     := $(wildcard test/simnode/cmd/*/main.go test/simcloud/cmd/*/main.go)
TEST_TIMEOUT ?= 15m
# The build's version, stamped into every binary (pkg/component/version):
# the API server's /version, each daemon's --version, start log and
# User-Agent all report it. A tree with uncommitted changes is "dirty" and
# its version says so. BUILD_DATE may be pinned for reproducible builds.
GIT_COMMIT     := $(shell git rev-parse HEAD 2>/dev/null)
GIT_TREE_STATE := $(if $(shell git status --porcelain --untracked-files=no 2>/dev/null),dirty,clean)
VERSION        ?= v1.32.0-platform.$(or $(shell git rev-parse --short HEAD 2>/dev/null),dev)$(if $(filter dirty,$(GIT_TREE_STATE)),-dirty)
BUILD_DATE     ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
VERSION_PKG    := platform.io/platform/pkg/component/version
LDFLAGS        := -X $(VERSION_PKG).gitVersion=$(VERSION) \
                  -X $(VERSION_PKG).gitCommit=$(GIT_COMMIT) \
                  -X $(VERSION_PKG).gitTreeState=$(GIT_TREE_STATE) \
                  -X $(VERSION_PKG).buildDate=$(BUILD_DATE)

.PHONY: all build test test-unit test-daemon test-staging test-integration test-external-etcd test-e2e test-ha test-chaos chaos soak run bench fuzz generate verify clean

all: build

build:
	@mkdir -p $(BIN)
	@for d in $(DAEMONS); do \
		echo "go build -o $(BIN)/platform-$$d ./cmd/$$d"; \
		$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/platform-$$d ./cmd/$$d || exit 1; \
	done
	@for t in $(patsubst %/main.go,%,$(TOOLS)); do \
		echo "go build -o $(BIN)/$$(basename $$t) ./$$t"; \
		$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/$$(basename $$t) ./$$t || exit 1; \
	done

# The checks of make verify, then unit and integration tests of both
# modules, then the integration suite
# again on an external etcd, then the end-to-end suite on the built binaries,
# then the HA test on its own, then the chaos scenarios.
test: verify build test-staging test-unit test-daemon test-external-etcd test-e2e test-ha test-chaos

test-staging:
	cd staging && $(GO) test -timeout $(TEST_TIMEOUT) ./...

# TestSoak (test/soak) skips without SOAK_DURATION: only make soak runs it.
test-unit:
	SOAK_DURATION= $(GO) test -timeout $(TEST_TIMEOUT) $$($(GO) list ./... | grep -v -e '/test/e2e' -e '/test/chaos$$' -e '/test/integration/daemon$$' -e '/test/integration/leaderelection$$')

# The daemon and leader-election tests (leader election under saturation,
# outages, pauses; successor times) time lease renewals in seconds: they
# run alone, on both etcds, so the other packages' load is not what they
# measure.
TIMED_PACKAGES := ./test/integration/daemon/ ./test/integration/leaderelection/
test-daemon:
	$(GO) test -count=1 -p 1 -timeout $(TEST_TIMEOUT) $(TIMED_PACKAGES)
	PLATFORM_TEST_ETCD=external $(GO) test -count=1 -p 1 -timeout $(TEST_TIMEOUT) $(TIMED_PACKAGES)

# The integration suite against a real etcd process (Debian's etcd-server).
test-external-etcd:
	PLATFORM_TEST_ETCD=external $(GO) test -count=1 -timeout $(TEST_TIMEOUT) $$($(GO) list ./test/integration/... | grep -v -e '/test/integration/daemon$$' -e '/test/integration/leaderelection$$') ./test/badinput/... ./pkg/apiserver/storage/...

test-e2e: build
	PLATFORM_BIN_DIR=$(abspath $(BIN)) $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -skip '^TestHA$$' ./test/e2e/...

# The HA end-to-end test (test/e2e/ha_test.go): three simulated hosts with a
# real three-member etcd, killed and restarted in turn. It runs alone, so its
# takeover times are not the other tests' load; -v prints its table.
test-ha: build
	PLATFORM_BIN_DIR=$(abspath $(BIN)) $(GO) test -count=1 -timeout 10m -v -run '^TestHA$$' ./test/e2e/

# The chaos scenarios (test/chaos): a recorded workload against the API
# server over a three-member etcd while one kind of fault is injected per
# scenario, then linearizability, list and watch checks. test-chaos runs
# each scenario for DURATION (20s by default); `make chaos DURATION=10m`
# runs them long; CHAOS_SCENARIOS=etcd-kill,... picks some.
DURATION ?= 20s
test-chaos: build
	PLATFORM_BIN_DIR=$(abspath $(BIN)) CHAOS_DURATION=$(DURATION) $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -v -run '^TestChaos$$' ./test/chaos/

chaos: DURATION = 10m
chaos: TEST_TIMEOUT = 0
chaos: test-chaos

# The soak (test/soak; not in CI, not in make test): the whole control
# plane from the built binaries under a mixed workload for SOAK_DURATION,
# every daemon's RSS, goroutines and open files sampled every
# SOAK_INTERVAL and judged flat after the warm-up (docs/reliability.md,
# "Soak"). samples.csv and summary.md go to _output/soak/.
SOAK_DURATION ?= 1h
SOAK_INTERVAL ?= 30s
soak: build
	PLATFORM_BIN_DIR=$(abspath $(BIN)) SOAK_DURATION=$(SOAK_DURATION) SOAK_INTERVAL=$(SOAK_INTERVAL) \
		SOAK_OUT=$(abspath $(OUT))/soak $(GO) test -count=1 -timeout 0 -v -run '^TestSoak$$' ./test/soak/

run: build
	hack/local-up.sh

bench: build
	hack/bench.sh

# Every fuzz target of both modules, one at a time, for FUZZTIME each
# (hack/fuzz.sh). make test runs only their committed corpora, as tests.
FUZZTIME ?= 10s
fuzz:
	FUZZTIME=$(FUZZTIME) hack/fuzz.sh

# Generated code: protobuf, deepcopy, OpenAPI docs, and the flag reference
# docs/flags/<daemon>.md (hack/flagdocs).
generate:
	$(GO) generate ./...
	cd staging && $(GO) generate ./...

verify:
	hack/verify.sh

clean:
	rm -rf $(OUT)

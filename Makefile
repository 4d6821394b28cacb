# The control plane's build, test and run entry points. See README.md.
GO        ?= go
OUT       := _output
BIN       := $(OUT)/bin
# Every daemon whose cmd/<name>/main.go exists is built as platform-<name>.
DAEMONS   := $(patsubst cmd/%/main.go,%,$(wildcard cmd/*/main.go))
# Test tools the e2e suite and make run use, built beside the daemons.
TOOLS     := $(wildcard test/simnode/cmd/*/main.go test/simcloud/cmd/*/main.go)
TEST_TIMEOUT ?= 15m
VERSION   ?= v1.32.0-platform.$(shell git rev-parse --short HEAD 2>/dev/null || echo dev)
LDFLAGS   := -X platform.io/platform/pkg/apiserver/server.gitVersion=$(VERSION) \
             -X platform.io/platform/pkg/apiserver/server.gitCommit=$(shell git rev-parse HEAD 2>/dev/null) \
             -X platform.io/platform/pkg/apiserver/server.buildDate=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)

.PHONY: all build test test-unit test-staging test-integration test-external-etcd test-e2e run bench generate verify clean

all: build

build:
	@mkdir -p $(BIN)
	@for d in $(DAEMONS); do \
		echo "go build -o $(BIN)/platform-$$d ./cmd/$$d"; \
		$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/platform-$$d ./cmd/$$d || exit 1; \
	done
	@for t in $(patsubst %/main.go,%,$(TOOLS)); do \
		echo "go build -o $(BIN)/$$(basename $$t) ./$$t"; \
		$(GO) build -o $(BIN)/$$(basename $$t) ./$$t || exit 1; \
	done

# The checks of make verify, then unit and integration tests of both
# modules, then the integration suite
# again on an external etcd, then the end-to-end suite on the built binaries.
test: verify build test-staging test-unit test-external-etcd test-e2e

test-staging:
	cd staging && $(GO) test -timeout $(TEST_TIMEOUT) ./...

test-unit:
	$(GO) test -timeout $(TEST_TIMEOUT) $$($(GO) list ./... | grep -v '/test/e2e')

# The integration suite against a real etcd process (Debian's etcd-server).
test-external-etcd:
	PLATFORM_TEST_ETCD=external $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./test/integration/... ./pkg/apiserver/storage/...

test-e2e: build
	PLATFORM_BIN_DIR=$(abspath $(BIN)) $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./test/e2e/...

run: build
	hack/local-up.sh

bench: build
	hack/bench.sh

generate:
	$(GO) generate ./...
	cd staging && $(GO) generate ./...

verify:
	hack/verify.sh

clean:
	rm -rf $(OUT)

#!/usr/bin/env bash
# Runs the benchmarks and prints their results; docs/perf.md records them.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p _output
# Benchmarks of whole processes (test/bench/controlplane) run the built binaries.
export PLATFORM_BIN_DIR=$PWD/_output/bin
go test -run '^$' -bench . -benchtime "${BENCHTIME:-1x}" -timeout 30m ./test/bench/... | tee _output/bench.txt
# Client library benchmarks (issue 5): work queue throughput, informer memory.
(cd staging && go test -run '^$' -bench . -benchtime "${BENCHTIME:-1x}" -timeout 10m ./workqueue/ ./informer/ ./record/) | tee -a _output/bench.txt
# Namespace deletion (issue 7) is test/bench/namespace, run by the ./test/bench/... line above; docs/perf.md "Namespace deletion".
# Scheduler (issue 6) is test/bench/scheduler (BenchmarkScheduling: pods/s against the API server's binding rate, 500 and 5,000 nodes), run by the ./test/bench/... line above; docs/perf.md "Scheduler".
# Fenced writes (issue 13) is test/bench/fencing_test.go (BenchmarkFencedWrites: cost per write with and without X-Platform-Leader-Lock), run by the ./test/bench/... line above; docs/perf.md "Fenced writes".
# Scheduler start and takeover (issue 13) is test/bench/scheduler BenchmarkSchedulerStart on the built platform-scheduler, run by the ./test/bench/... line above; docs/perf.md "Scheduler start and takeover".
# Admission cost (issue 15) is test/bench/admission_test.go (BenchmarkAdmissionCost: pod creates with every plugin off vs the default-on chain vs that chain and one no-op validating webhook), run by the ./test/bench/... line above; docs/perf.md "Admission cost (issue 15)".
# Audit cost (issue 15) is test/bench/audit_test.go (BenchmarkAuditCost: the same pod creates with every request audited at Metadata level to a file vs no audit), run by the ./test/bench/... line above; docs/perf.md "Audit cost (issue 15)".
# Authentication and authorization cost (issue 14) is test/bench/auth_test.go (BenchmarkAuthCost: Node,RBAC with 10,000 RoleBindings vs AlwaysAllow, client certificate and token, 64 clients), run by the ./test/bench/... line above; docs/perf.md "Authentication and authorization cost (issue 14)".
# List memory (issue 17) is test/bench/listmemory_test.go (BenchmarkListMemory: live heap growth while 10 clients list 50,000 pods at once, JSON and protobuf), run by the ./test/bench/... line above; docs/perf.md "List memory (issue 17)".
# managedFields (issue 18) is test/bench/managedfields_test.go (BenchmarkManagedFieldsCost: pod creates and updates at 64 clients with the ServerSideApply gate off and on; BenchmarkApplyLatency: apply next to a strategic merge patch of the same change), run by the ./test/bench/... line above; docs/perf.md "managedFields and server-side apply (issue 18)".
# Watch storm (issue 17) is test/bench/storm_test.go (BenchmarkWatchStorm: 1,000 watchers of 3,000 pods reconnecting at once, resume / rv=0 / watch-list; time until all are established and heap growth), run by the ./test/bench/... line above; docs/perf.md "Watch storm (issue 17)".
# Custom resources (issue 19) is test/bench/crd_test.go (BenchmarkCustomResources: custom resource creates at 64 clients and lists, without a schema, with an operator-like schema, with that and CEL rules, against ConfigMaps of the same JSON size), run by the ./test/bench/... line above; the schema's cost per object is BenchmarkValidate/BenchmarkWrite in pkg/apiserver/crd/structural and cel, and BenchmarkLargeSchemaInstance in test/integration/crd; docs/perf.md "Custom resources (issue 19)".
# Event recorder memory (issue 17) is staging/record BenchmarkCorrelatorMemory (bytes a sink's caches keep per distinct event), run by the staging line above; docs/perf.md "Event recorder memory (issue 17)".

#!/bin/sh
# Generates the Go code of the .proto files given as arguments, in the
# current directory, with protoc and the protoc-gen-go and
# protoc-gen-go-grpc versions pinned as tools in staging/go.mod.
set -eu
# Without protoc the committed code is left as it is, so make generate and
# make verify work on a machine with only Go; .ci/run installs protoc, so
# CI checks this code too.
if ! command -v protoc >/dev/null 2>&1; then
	echo "grpcgen: protoc not found, $* not regenerated (Debian: apt-get install protobuf-compiler)" >&2
	exit 0
fi
gen=$(go tool -n protoc-gen-go)
gengrpc=$(go tool -n protoc-gen-go-grpc)
protoc --plugin=protoc-gen-go="$gen" --plugin=protoc-gen-go-grpc="$gengrpc" \
	--go_out=. --go_opt=paths=source_relative \
	--go-grpc_out=. --go-grpc_opt=paths=source_relative \
	"$@"

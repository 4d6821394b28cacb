module platform.io/client

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	google.golang.org/protobuf v1.36.12
)

module platform.io/client

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/time v0.16.0
	google.golang.org/protobuf v1.36.12
	sigs.k8s.io/yaml v1.4.0
)

// Package apiserver holds the API server's integration tests: each test
// starts a real server (framework.Start) over a real etcd and checks one
// rule of the spec through HTTP, for every resource where the rule is generic.
package apiserver

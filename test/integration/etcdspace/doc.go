// Package etcdspace holds the integration test of an etcd that runs out of
// space: an etcd process of its own with a small --quota-backend-bytes, an
// API server on top, filled until etcd raises its NOSPACE alarm, then
// recovered the way an operator would (docs/reliability.md, "etcd out of
// space"). It runs with PLATFORM_TEST_ETCD=external (make test-external-etcd).
package etcdspace

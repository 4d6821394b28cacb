// Package compaction holds integration tests that compact the test etcd's
// history. Compaction is global to the etcd member a test binary shares, so
// these tests live in their own binary and run one at a time, away from the
// snapshots other tests rely on.
package compaction

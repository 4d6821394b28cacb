// Package watchstorm holds the integration test of many watches started
// at once against one API server, as after a restart: each must be
// answered, get its initial events and see a later change.
// BenchmarkWatchStorm (test/bench) measures the same at 1,000 watches.
package watchstorm

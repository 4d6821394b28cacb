// Package daemons lists every daemon's command constructor, one per
// cmd/<daemon>/app, so that tools can walk the daemons' flags: the flag
// reference generator (hack/flagdocs) and the test that keeps deploy/ in
// step with the binaries. zz_generated.daemons.go is written by
// hack/flagdocs from the cmd/*/app packages that exist.
package daemons

//go:generate go run ..

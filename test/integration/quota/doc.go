// Package quota tests the LimitRanger and ResourceQuota admission plugins
// against real API servers over the test etcd: defaults and bounds from a
// LimitRange, a quota refusing the write that would exceed it with nothing
// stored, and concurrent creates through two API servers never exceeding
// a quota.
package quota

// Package controller holds what the controller manager's loops share: the
// Descriptor each loop registers (name, flags, constructor, default on or
// off) and the Context a loop is built from. Each loop lives in a package
// of its own under pkg/controller/<name>; cmd/controller-manager/app holds
// the table of descriptors that --controllers selects from.
//
// A loop writes only what is its own. Register builds its Descriptor from
// its options constructor and its typed constructor, checking the options'
// type once; Syncs is the --concurrent-<x>-syncs worker flag that loops
// embed in their options (help text and default per loop, the validation
// "must be at least 1" for all); Context.NewLoop builds the worker loop
// (a ctrl.Controller, itself the Runnable) with the daemon's queue metrics
// and a log line for every failed sync.
package controller

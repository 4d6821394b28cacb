// Package runtime is the framework runtime: it builds one profile's
// plugins from a registry and the profile's configuration, runs each
// extension point in order with the framework's Skip, reject and weight
// rules and per-plugin metrics, holds pods that permit plugins made wait,
// and is the framework.Handle the plugins are given.
package runtime

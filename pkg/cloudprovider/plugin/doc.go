// Package plugin connects the cloud controller manager to a cloud provider
// served out of process over the plugin protocol: on a Unix socket it is
// given, or on one it serves from a provider binary it starts and
// restarts. Calls have deadlines and are counted per method; a provider
// that is down or hangs makes calls fail, never the daemon, and shows in
// /readyz.
package plugin

// Package options holds the command-line options the scheduler, the
// controller manager and the cloud controller manager share, one struct
// per concern, each with AddFlags, Validate and, where it builds
// something, ApplyTo:
//
//   - Generic: how to reach the API server (--kubeconfig, --master,
//     --platform-api-qps, --platform-api-burst, --platform-api-content-type);
//   - SecureServing: the HTTPS endpoint (--bind-address, --secure-port,
//     --cert-dir, --tls-cert-file, --tls-private-key-file);
//   - Authentication and Authorization: delegation to the API server, with
//     upstream's flags and defaults;
//   - LeaderElection: --leader-elect and its timings and lock;
//   - Debugging: --profiling, --contention-profiling;
//   - Logging: --log-format, -v;
//   - Version: --version.
//
// Options gathers them, with the --feature-gates of the daemon, in named
// groups for --help. Values differing between daemons come from Defaults
// (SchedulerDefaults, ControllerManagerDefaults,
// CloudControllerManagerDefaults), so the one precedence rule holds:
// the daemon's defaults, then the flags the user set, each parsed once.
//
// Validate reports every bad value, each error naming its flag.
package options

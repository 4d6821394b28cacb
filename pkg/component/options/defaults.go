package options

// Defaults are the values that differ between the daemons.
type Defaults struct {
	// Name names the daemon's self-signed certificate.
	Name string
	// QPS and Burst are the defaults of --platform-api-qps and --platform-api-burst.
	QPS   float32
	Burst int
	// SecurePort is the default of --secure-port.
	SecurePort int
	// LeaseName is the default of --leader-elect-resource-name.
	LeaseName string
	// TolerateLookupFailure is the default of --authentication-tolerate-lookup-failure.
	TolerateLookupFailure bool
	// ContentionProfiling is the default of --contention-profiling.
	ContentionProfiling bool
	// NoLeaderElection makes --leader-elect default to false, for a daemon
	// whose replicas all serve.
	NoLeaderElection bool
}

// SchedulerDefaults are the scheduler's.
func SchedulerDefaults() Defaults {
	return Defaults{Name: "platform-scheduler", QPS: 50, Burst: 100, SecurePort: 10259,
		LeaseName: "platform-scheduler", TolerateLookupFailure: true, ContentionProfiling: true}
}

// ControllerManagerDefaults are the controller manager's.
func ControllerManagerDefaults() Defaults {
	return Defaults{Name: "platform-controller-manager", QPS: 20, Burst: 30, SecurePort: 10257,
		LeaseName: "platform-controller-manager"}
}

// CloudControllerManagerDefaults are the cloud controller manager's.
func CloudControllerManagerDefaults() Defaults {
	return Defaults{Name: "cloud-controller-manager", QPS: 20, Burst: 30, SecurePort: 10258,
		LeaseName: "cloud-controller-manager"}
}

// MetricsServerDefaults are the metrics server's: every replica serves,
// so it elects no leader by default.
func MetricsServerDefaults() Defaults {
	return Defaults{Name: "platform-metrics-server", QPS: 50, Burst: 100, SecurePort: 10250,
		LeaseName: "platform-metrics-server", NoLeaderElection: true}
}

package simnode

import (
	"fmt"
	"net"
	"time"

	"github.com/spf13/pflag"

	"platform.io/client/api/resource"
)

// Options are the agent's flags.
type Options struct {
	Nodes          int
	NamePrefix     string
	Zones          []string
	CPU            string
	Memory         string
	Pods           int
	Images         []string
	LeaseInterval  time.Duration
	LeaseDuration  time.Duration
	StatusInterval time.Duration
	ReadinessDelay time.Duration
	JobPodDuration time.Duration
	Workers        int
	// CloudProvider "external" registers nodes for a cloud controller
	// manager to initialize.
	CloudProvider string
	// ResourceMetricsAddress is the IP the nodes serve their usage on;
	// empty for none.
	ResourceMetricsAddress string
	// ContainerCPUUsage and ContainerMemoryUsage are each container's
	// usage when its pod's annotations do not set it.
	ContainerCPUUsage    string
	ContainerMemoryUsage string
}

// NewOptions returns the defaults: three nodes of 4 cores, 16Gi and 110
// pods in one zone, renewing their leases every 10s for 40s and reporting
// status at least every 5m.
func NewOptions() *Options {
	return &Options{
		Nodes: 3, NamePrefix: "simnode-", Zones: []string{"zone-a"},
		CPU: "4", Memory: "16Gi", Pods: 110,
		Images:               []string{"registry.platform.io/pause:3.9", "busybox:latest", "nginx:latest"},
		LeaseInterval:        10 * time.Second,
		LeaseDuration:        40 * time.Second,
		StatusInterval:       5 * time.Minute,
		ReadinessDelay:       time.Second,
		JobPodDuration:       5 * time.Second,
		Workers:              8,
		ContainerCPUUsage:    "10m",
		ContainerMemoryUsage: "32Mi",
	}
}

// AddFlags registers the options.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Nodes, "nodes", o.Nodes, "Number of nodes to simulate.")
	fs.StringVar(&o.NamePrefix, "name-prefix", o.NamePrefix, "Prefix of the node names; node i is named <prefix><i>.")
	fs.StringSliceVar(&o.Zones, "zones", o.Zones, "Zones the nodes are spread over, round robin (label topology.platform.io/zone).")
	fs.StringVar(&o.CPU, "cpu", o.CPU, "CPU capacity and allocatable of each node.")
	fs.StringVar(&o.Memory, "memory", o.Memory, "Memory capacity and allocatable of each node.")
	fs.IntVar(&o.Pods, "pods", o.Pods, "Pod capacity and allocatable of each node.")
	fs.StringSliceVar(&o.Images, "images", o.Images, "Images each node reports as present (node.status.images).")
	fs.DurationVar(&o.LeaseInterval, "lease-interval", o.LeaseInterval, "How often each node renews its Lease in platform-node-lease.")
	fs.DurationVar(&o.LeaseDuration, "lease-duration", o.LeaseDuration, "leaseDurationSeconds written in each node's Lease.")
	fs.DurationVar(&o.StatusInterval, "node-status-report-frequency", o.StatusInterval, "How often a node reports its status when nothing changed.")
	fs.DurationVar(&o.ReadinessDelay, "readiness-delay", o.ReadinessDelay, "How long after a container starts it becomes ready.")
	fs.DurationVar(&o.JobPodDuration, "job-pod-duration", o.JobPodDuration, "How long pods owned by a Job run before they complete.")
	fs.IntVar(&o.Workers, "workers", o.Workers, "Pods and leases handled at once.")
	fs.StringVar(&o.ResourceMetricsAddress, "resource-metrics-address", o.ResourceMetricsAddress, "IP address (a loopback one, as all nodes share this host) on which each node serves its CPU and memory usage as a kubelet does: GET /metrics/resource over HTTPS, each node on a port of its own, published as the node's InternalIP and status.daemonEndpoints.kubeletEndpoint.port. Empty serves none.")
	fs.StringVar(&o.ContainerCPUUsage, "container-cpu-usage", o.ContainerCPUUsage, "CPU each running container uses, in cores, unless its pod's annotation simnode.platform.io/cpu-usage[.<container>] says otherwise.")
	fs.StringVar(&o.ContainerMemoryUsage, "container-memory-usage", o.ContainerMemoryUsage, "Memory working set of each running container unless its pod's annotation simnode.platform.io/memory-usage[.<container>] says otherwise.")
	fs.StringVar(&o.CloudProvider, "cloud-provider", o.CloudProvider, "\"external\" registers nodes as a node agent does for a cloud controller manager: with the node.cloudprovider.platform.io/uninitialized taint and no provider ID, zone label or pod CIDR, which the cloud loops and node IPAM fill in. Empty for none.")
}

// Validate checks the options, naming the flag of each error.
func (o *Options) Validate() []error {
	var errs []error
	if o.Nodes < 0 || o.Nodes > maxNodes {
		errs = append(errs, fmt.Errorf("--nodes: %d must be between 0 and %d", o.Nodes, maxNodes))
	}
	if o.NamePrefix == "" {
		errs = append(errs, fmt.Errorf("--name-prefix: must not be empty"))
	}
	if len(o.Zones) == 0 {
		errs = append(errs, fmt.Errorf("--zones: at least one zone is needed"))
	}
	if _, err := resource.ParseQuantity(o.CPU); err != nil {
		errs = append(errs, fmt.Errorf("--cpu: %w", err))
	}
	if _, err := resource.ParseQuantity(o.Memory); err != nil {
		errs = append(errs, fmt.Errorf("--memory: %w", err))
	}
	for _, q := range []struct{ flag, v string }{{"--container-cpu-usage", o.ContainerCPUUsage}, {"--container-memory-usage", o.ContainerMemoryUsage}} {
		if v, err := resource.ParseQuantity(q.v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", q.flag, err))
		} else if v.Sign() < 0 {
			errs = append(errs, fmt.Errorf("%s: %s must not be negative", q.flag, q.v))
		}
	}
	if o.ResourceMetricsAddress != "" && net.ParseIP(o.ResourceMetricsAddress) == nil {
		errs = append(errs, fmt.Errorf("--resource-metrics-address: %q is not an IP address", o.ResourceMetricsAddress))
	}
	if o.Pods <= 0 || o.Pods > 250 {
		errs = append(errs, fmt.Errorf("--pods: %d must be between 1 and 250 (one /24 of pod IPs per node)", o.Pods))
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
		min  time.Duration
	}{
		{"--lease-interval", o.LeaseInterval, time.Millisecond},
		{"--lease-duration", o.LeaseDuration, time.Second},
		{"--node-status-report-frequency", o.StatusInterval, time.Millisecond},
		{"--readiness-delay", o.ReadinessDelay, 0},
		{"--job-pod-duration", o.JobPodDuration, 0},
	} {
		if d.v < d.min {
			errs = append(errs, fmt.Errorf("%s: %v must be at least %v", d.flag, d.v, d.min))
		}
	}
	if o.CloudProvider != "" && o.CloudProvider != "external" {
		errs = append(errs, fmt.Errorf("--cloud-provider: %q must be empty or \"external\"", o.CloudProvider))
	}
	if o.Workers <= 0 {
		errs = append(errs, fmt.Errorf("--workers: %d must be positive", o.Workers))
	}
	return errs
}

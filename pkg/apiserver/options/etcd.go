package options

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Etcd configures the storage backend.
type Etcd struct {
	Servers  []string
	Prefix   string
	CAFile   string
	CertFile string
	KeyFile  string
	// DataDir holds the embedded etcd's data when Servers is empty.
	DataDir string
	// CompactionInterval is how often the API server compacts etcd history.
	CompactionInterval time.Duration
	// DialTimeout bounds connecting to etcd.
	DialTimeout time.Duration
	// StorageMediaType is how objects are written to etcd.
	StorageMediaType string
	// CountMetricPollPeriod is how often apiserver_storage_objects is
	// recounted; 0 turns the metric off.
	CountMetricPollPeriod time.Duration
}

// NewEtcd returns the defaults.
func NewEtcd() *Etcd {
	return &Etcd{Prefix: "/registry", DataDir: "_output/local/etcd", CompactionInterval: 5 * time.Minute, DialTimeout: 20 * time.Second,
		CountMetricPollPeriod: time.Minute, StorageMediaType: "application/vnd.platform.protobuf"}
}

// AddFlags registers the etcd flags.
func (o *Etcd) AddFlags(fs *pflag.FlagSet) {
	fs.StringSliceVar(&o.Servers, "etcd-servers", o.Servers, "List of etcd servers to connect with (scheme://ip:port), comma separated. Empty starts an embedded single-member etcd in --data-dir, for development only.")
	fs.StringVar(&o.Prefix, "etcd-prefix", o.Prefix, "The prefix to prepend to all resource paths in etcd.")
	fs.StringVar(&o.CAFile, "etcd-cafile", o.CAFile, "SSL Certificate Authority file used to secure etcd communication.")
	fs.StringVar(&o.CertFile, "etcd-certfile", o.CertFile, "SSL certification file used to secure etcd communication.")
	fs.StringVar(&o.KeyFile, "etcd-keyfile", o.KeyFile, "SSL key file used to secure etcd communication.")
	fs.StringVar(&o.DataDir, "data-dir", o.DataDir, "Directory of the embedded etcd's data, used when --etcd-servers is empty.")
	fs.DurationVar(&o.CompactionInterval, "etcd-compaction-interval", o.CompactionInterval, "The interval of compaction requests. If 0, compaction from the API server is disabled.")
	fs.DurationVar(&o.DialTimeout, "etcd-dial-timeout", o.DialTimeout, "How long to wait for etcd at start before failing.")
	fs.DurationVar(&o.CountMetricPollPeriod, "etcd-count-metric-poll-period", o.CountMetricPollPeriod, "Frequency of polling etcd for number of resources per type (apiserver_storage_objects). 0 disables the metric collection.")
	fs.StringVar(&o.StorageMediaType, "storage-media-type", o.StorageMediaType, "The media type objects are written to etcd in: application/vnd.platform.protobuf or application/json. Data written in either stays readable after a change.")
}

// Validate checks the etcd options.
func (o *Etcd) Validate() []error {
	var errs []error
	for _, s := range o.Servers {
		if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
			errs = append(errs, fmt.Errorf("--etcd-servers: %q must start with http:// or https://", s))
		}
	}
	if !strings.HasPrefix(o.Prefix, "/") {
		errs = append(errs, fmt.Errorf("--etcd-prefix: %q must start with /", o.Prefix))
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		errs = append(errs, fmt.Errorf("--etcd-certfile and --etcd-keyfile must be given together"))
	}
	if len(o.Servers) == 0 && o.DataDir == "" {
		errs = append(errs, fmt.Errorf("--data-dir: required when --etcd-servers is empty"))
	}
	if o.StorageMediaType != "application/vnd.platform.protobuf" && o.StorageMediaType != "application/json" {
		errs = append(errs, fmt.Errorf("--storage-media-type: %q is not application/vnd.platform.protobuf or application/json", o.StorageMediaType))
	}
	if o.CompactionInterval < 0 {
		errs = append(errs, fmt.Errorf("--etcd-compaction-interval: must not be negative"))
	}
	if o.CountMetricPollPeriod < 0 {
		errs = append(errs, fmt.Errorf("--etcd-count-metric-poll-period: must not be negative"))
	}
	return errs
}

// Complete cleans up the prefix.
func (o *Etcd) Complete() error {
	o.Prefix = strings.TrimRight(o.Prefix, "/")
	if o.Prefix == "" {
		o.Prefix = "/"
	}
	return nil
}

package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The file's apiVersion and kind.
const (
	APIVersion = "scheduler.config.platform.io/v1"
	Kind       = "SchedulerConfiguration"
)

// Configuration is the scheduler's configuration file, field for field as
// upstream's KubeSchedulerConfiguration where both have a field.
type Configuration struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Parallelism bounds the goroutines that filter and score nodes.
	Parallelism *int32 `json:"parallelism,omitempty"`
	// PercentageOfNodesToScore is how many of the nodes are looked at,
	// at most, once enough feasible ones are found; 0 is adaptive.
	PercentageOfNodesToScore *int32 `json:"percentageOfNodesToScore,omitempty"`
	// PodInitialBackoffSeconds and PodMaxBackoffSeconds bound the retry
	// backoff of unschedulable pods.
	PodInitialBackoffSeconds *int64            `json:"podInitialBackoffSeconds,omitempty"`
	PodMaxBackoffSeconds     *int64            `json:"podMaxBackoffSeconds,omitempty"`
	LeaderElection           *LeaderElection   `json:"leaderElection,omitempty"`
	ClientConnection         *ClientConnection `json:"clientConnection,omitempty"`
	Profiles                 []Profile         `json:"profiles,omitempty"`
}

// LeaderElection is upstream's LeaderElectionConfiguration.
type LeaderElection struct {
	LeaderElect       *bool     `json:"leaderElect,omitempty"`
	LeaseDuration     *Duration `json:"leaseDuration,omitempty"`
	RenewDeadline     *Duration `json:"renewDeadline,omitempty"`
	RetryPeriod       *Duration `json:"retryPeriod,omitempty"`
	ResourceLock      string    `json:"resourceLock,omitempty"`
	ResourceName      string    `json:"resourceName,omitempty"`
	ResourceNamespace string    `json:"resourceNamespace,omitempty"`
}

// ClientConnection is upstream's ClientConnectionConfiguration.
type ClientConnection struct {
	Kubeconfig  string   `json:"kubeconfig,omitempty"`
	QPS         *float32 `json:"qps,omitempty"`
	Burst       *int32   `json:"burst,omitempty"`
	ContentType string   `json:"contentType,omitempty"`
}

// Profile is one scheduler name with its plugins.
type Profile struct {
	SchedulerName string         `json:"schedulerName"`
	Plugins       *Plugins       `json:"plugins,omitempty"`
	PluginConfig  []PluginConfig `json:"pluginConfig,omitempty"`
}

// Plugins are the plugin sets of each extension point. MultiPoint plugins
// are added to every extension point they implement.
type Plugins struct {
	QueueSort  PluginSet `json:"queueSort,omitempty"`
	PreFilter  PluginSet `json:"preFilter,omitempty"`
	Filter     PluginSet `json:"filter,omitempty"`
	PostFilter PluginSet `json:"postFilter,omitempty"`
	PreScore   PluginSet `json:"preScore,omitempty"`
	Score      PluginSet `json:"score,omitempty"`
	Reserve    PluginSet `json:"reserve,omitempty"`
	Permit     PluginSet `json:"permit,omitempty"`
	PreBind    PluginSet `json:"preBind,omitempty"`
	Bind       PluginSet `json:"bind,omitempty"`
	PostBind   PluginSet `json:"postBind,omitempty"`
	MultiPoint PluginSet `json:"multiPoint,omitempty"`
}

// PluginSet enables plugins (in order) and disables default ones ("*"
// disables them all).
type PluginSet struct {
	Enabled  []Plugin `json:"enabled,omitempty"`
	Disabled []Plugin `json:"disabled,omitempty"`
}

// Plugin names a plugin; Weight is for score plugins (0 means 1).
type Plugin struct {
	Name   string `json:"name"`
	Weight int32  `json:"weight,omitempty"`
}

// PluginConfig is a plugin's arguments, handed to its factory as JSON.
type PluginConfig struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// Duration is a time.Duration written as "15s" in the file.
type Duration struct{ time.Duration }

// UnmarshalJSON reads "15s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string such as \"15s\": %w", err)
	}
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// MarshalJSON writes "15s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.Duration.String()) }

// Points are the extension points by their field names in the file, in
// the order the framework runs them.
func (p *Plugins) Points() []NamedSet {
	return []NamedSet{
		{"queueSort", &p.QueueSort}, {"preFilter", &p.PreFilter}, {"filter", &p.Filter},
		{"postFilter", &p.PostFilter}, {"preScore", &p.PreScore}, {"score", &p.Score},
		{"reserve", &p.Reserve}, {"permit", &p.Permit}, {"preBind", &p.PreBind},
		{"bind", &p.Bind}, {"postBind", &p.PostBind}, {"multiPoint", &p.MultiPoint},
	}
}

// NamedSet is one extension point's set with its field name.
type NamedSet struct {
	Name string
	Set  *PluginSet
}

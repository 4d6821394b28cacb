package options

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"gopkg.in/natefinch/lumberjack.v2"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/audit"
	"platform.io/platform/pkg/apiserver/audit/buffered"
	auditlog "platform.io/platform/pkg/apiserver/audit/log"
	"platform.io/platform/pkg/apiserver/audit/policy"
	"platform.io/platform/pkg/apiserver/audit/truncate"
	"platform.io/platform/pkg/apiserver/audit/webhook"
)

// The audit backend modes, as upstream names them.
const (
	// AuditModeBatch buffers events and sends them in the background;
	// requests never wait for the backend.
	AuditModeBatch = "batch"
	// AuditModeBlocking sends each event before the request goes on, and
	// ignores failures.
	AuditModeBlocking = "blocking"
	// AuditModeBlockingStrict is blocking, and fails the request when its
	// RequestReceived event cannot be recorded.
	AuditModeBlockingStrict = "blocking-strict"
)

// AuditModes are the values of --audit-log-mode and --audit-webhook-mode.
func AuditModes() []string {
	return []string{AuditModeBatch, AuditModeBlocking, AuditModeBlockingStrict}
}

// Upstream's batch defaults.
const (
	auditBatchBufferSize    = 10000
	auditBatchMaxSize       = 400
	auditBatchMaxWait       = 30 * time.Second
	auditBatchThrottleQPS   = 10
	auditBatchThrottleBurst = 15
)

// Audit configures audit logging: the policy and the two backends.
type Audit struct {
	PolicyFile string
	Log        AuditLog
	Webhook    AuditWebhook
}

// AuditLog is the log file backend.
type AuditLog struct {
	Path       string
	MaxAge     int
	MaxBackups int
	MaxSize    int
	Compress   bool
	Format     string
	Version    string
	Batch      AuditBatch
	Truncate   AuditTruncate
}

// AuditWebhook is the webhook backend.
type AuditWebhook struct {
	ConfigFile     string
	InitialBackoff time.Duration
	Version        string
	Batch          AuditBatch
	Truncate       AuditTruncate
}

// AuditBatch is a backend's mode and its batching.
type AuditBatch struct {
	Mode   string
	Config buffered.Config
}

// AuditTruncate is a backend's size limits.
type AuditTruncate struct {
	Enabled bool
	Config  truncate.Config
}

// NewAudit returns upstream's defaults, except that events are written as
// audit.platform.io/v1 (the same schema as upstream's audit.k8s.io/v1,
// which --audit-log-version and --audit-webhook-version also accept).
func NewAudit() *Audit {
	version := auditv1.SchemeGroupVersion.String()
	trunc := AuditTruncate{Config: truncate.Config{MaxEventSize: 100 * 1024, MaxBatchSize: 10 * 1024 * 1024}}
	return &Audit{
		Log: AuditLog{Format: auditlog.FormatJSON, Version: version, Truncate: trunc,
			// Batching does not help a file, and a second thread only
			// contends for it: batches of one, sent in turn.
			Batch: AuditBatch{Mode: AuditModeBlocking, Config: buffered.Config{BufferSize: auditBatchBufferSize, MaxBatchSize: 1}}},
		Webhook: AuditWebhook{InitialBackoff: webhook.DefaultInitialBackoff, Version: version, Truncate: trunc,
			Batch: AuditBatch{Mode: AuditModeBatch, Config: buffered.Config{
				BufferSize: auditBatchBufferSize, MaxBatchSize: auditBatchMaxSize, MaxBatchWait: auditBatchMaxWait,
				ThrottleEnable: true, ThrottleQPS: auditBatchThrottleQPS, ThrottleBurst: auditBatchThrottleBurst, AsyncDelegate: true,
			}}},
	}
}

// AddFlags registers the audit flags under upstream's names.
func (o *Audit) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.PolicyFile, "audit-policy-file", o.PolicyFile, "Path to the file that defines the audit policy configuration (kind Policy, apiVersion audit.platform.io/v1 or audit.k8s.io/v1, YAML or JSON). Without it nothing is audited.")
	l := &o.Log
	fs.StringVar(&l.Path, "audit-log-path", l.Path, "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.")
	fs.IntVar(&l.MaxAge, "audit-log-maxage", l.MaxAge, "The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.")
	fs.IntVar(&l.MaxBackups, "audit-log-maxbackup", l.MaxBackups, "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.")
	fs.IntVar(&l.MaxSize, "audit-log-maxsize", l.MaxSize, "The maximum size in megabytes of the audit log file before it gets rotated.")
	fs.BoolVar(&l.Compress, "audit-log-compress", l.Compress, "If set, the rotated log files will be compressed using gzip.")
	fs.StringVar(&l.Format, "audit-log-format", l.Format, "Format of saved audits. \"legacy\" indicates 1-line text format for each event. \"json\" indicates structured json format. Known formats are "+strings.Join(auditlog.Formats(), ",")+".")
	fs.StringVar(&l.Version, "audit-log-version", l.Version, "API group and version used for serializing audit events written to log: audit.platform.io/v1 or audit.k8s.io/v1 (the same schema under upstream's name).")
	l.Batch.addFlags(fs, auditlog.PluginName)
	l.Truncate.addFlags(fs, auditlog.PluginName)
	w := &o.Webhook
	fs.StringVar(&w.ConfigFile, "audit-webhook-config-file", w.ConfigFile, "Path to a kubeconfig formatted file that defines the audit webhook configuration.")
	fs.DurationVar(&w.InitialBackoff, "audit-webhook-initial-backoff", w.InitialBackoff, "The amount of time to wait before retrying the first failed request.")
	fs.StringVar(&w.Version, "audit-webhook-version", w.Version, "API group and version used for serializing audit events written to webhook: audit.platform.io/v1 or audit.k8s.io/v1 (the same schema under upstream's name).")
	w.Batch.addFlags(fs, webhook.PluginName)
	w.Truncate.addFlags(fs, webhook.PluginName)
}

func (o *AuditBatch) addFlags(fs *pflag.FlagSet, plugin string) {
	c := &o.Config
	fs.StringVar(&o.Mode, "audit-"+plugin+"-mode", o.Mode, "Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are "+strings.Join(AuditModes(), ",")+".")
	fs.IntVar(&c.BufferSize, "audit-"+plugin+"-batch-buffer-size", c.BufferSize, "The size of the buffer to store events before batching and writing. Only used in batch mode.")
	fs.IntVar(&c.MaxBatchSize, "audit-"+plugin+"-batch-max-size", c.MaxBatchSize, "The maximum size of a batch. Only used in batch mode.")
	fs.DurationVar(&c.MaxBatchWait, "audit-"+plugin+"-batch-max-wait", c.MaxBatchWait, "The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode.")
	fs.BoolVar(&c.ThrottleEnable, "audit-"+plugin+"-batch-throttle-enable", c.ThrottleEnable, "Whether batching throttling is enabled. Only used in batch mode.")
	fs.Float32Var(&c.ThrottleQPS, "audit-"+plugin+"-batch-throttle-qps", c.ThrottleQPS, "Maximum average number of batches per second. Only used in batch mode.")
	fs.IntVar(&c.ThrottleBurst, "audit-"+plugin+"-batch-throttle-burst", c.ThrottleBurst, "Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode.")
}

func (o *AuditTruncate) addFlags(fs *pflag.FlagSet, plugin string) {
	fs.BoolVar(&o.Enabled, "audit-"+plugin+"-truncate-enabled", o.Enabled, "Whether event and batch truncating is enabled.")
	fs.Int64Var(&o.Config.MaxBatchSize, "audit-"+plugin+"-truncate-max-batch-size", o.Config.MaxBatchSize, "Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.")
	fs.Int64Var(&o.Config.MaxEventSize, "audit-"+plugin+"-truncate-max-event-size", o.Config.MaxEventSize, "Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this doesn't reduce the size enough, event is discarded.")
}

// Validate checks the options of the backends that are enabled.
func (o *Audit) Validate() []error {
	var errs []error
	if o.Log.Path != "" {
		errs = append(errs, o.Log.Batch.validate(auditlog.PluginName)...)
		errs = append(errs, o.Log.Truncate.validate(auditlog.PluginName)...)
		errs = append(errs, validateAuditVersion("--audit-log-version", o.Log.Version)...)
		if !slices.Contains(auditlog.Formats(), o.Log.Format) {
			errs = append(errs, fmt.Errorf("--audit-log-format: %q is not one of %v", o.Log.Format, auditlog.Formats()))
		}
		for _, f := range []struct {
			name string
			v    int
		}{{"--audit-log-maxage", o.Log.MaxAge}, {"--audit-log-maxbackup", o.Log.MaxBackups}, {"--audit-log-maxsize", o.Log.MaxSize}} {
			if f.v < 0 {
				errs = append(errs, fmt.Errorf("%s: %d can't be a negative number", f.name, f.v))
			}
		}
	}
	if o.Webhook.ConfigFile != "" {
		errs = append(errs, o.Webhook.Batch.validate(webhook.PluginName)...)
		errs = append(errs, o.Webhook.Truncate.validate(webhook.PluginName)...)
		errs = append(errs, validateAuditVersion("--audit-webhook-version", o.Webhook.Version)...)
		if o.Webhook.InitialBackoff <= 0 {
			errs = append(errs, fmt.Errorf("--audit-webhook-initial-backoff: %v must be positive", o.Webhook.InitialBackoff))
		}
	}
	return errs
}

func validateAuditVersion(flag, v string) []error {
	if auditv1.KnownGroupVersion(v) {
		return nil
	}
	return []error{fmt.Errorf("%s: %q is neither %s nor %s", flag, v, auditv1.SchemeGroupVersion, auditv1.UpstreamGroupVersion)}
}

func (o *AuditBatch) validate(plugin string) []error {
	if !slices.Contains(AuditModes(), o.Mode) {
		return []error{fmt.Errorf("--audit-%s-mode: %q is not one of %v", plugin, o.Mode, AuditModes())}
	}
	if o.Mode != AuditModeBatch {
		return nil
	}
	var errs []error
	c := o.Config
	if c.BufferSize <= 0 {
		errs = append(errs, fmt.Errorf("--audit-%s-batch-buffer-size: %d must be a positive number", plugin, c.BufferSize))
	}
	if c.MaxBatchSize <= 0 {
		errs = append(errs, fmt.Errorf("--audit-%s-batch-max-size: %d must be a positive number", plugin, c.MaxBatchSize))
	}
	if c.MaxBatchWait < 0 {
		errs = append(errs, fmt.Errorf("--audit-%s-batch-max-wait: %v must not be negative", plugin, c.MaxBatchWait))
	}
	if c.ThrottleEnable && (c.ThrottleQPS <= 0 || c.ThrottleBurst <= 0) {
		errs = append(errs, fmt.Errorf("--audit-%s-batch-throttle-qps and -burst must be positive numbers with throttling enabled", plugin))
	}
	return errs
}

func (o *AuditTruncate) validate(plugin string) []error {
	if !o.Enabled {
		return nil
	}
	var errs []error
	if o.Config.MaxEventSize <= 0 {
		errs = append(errs, fmt.Errorf("--audit-%s-truncate-max-event-size: %d must be a positive number", plugin, o.Config.MaxEventSize))
	}
	if o.Config.MaxBatchSize < o.Config.MaxEventSize {
		errs = append(errs, fmt.Errorf("--audit-%s-truncate-max-batch-size: %d must not be less than the max event size (%d)", plugin, o.Config.MaxBatchSize, o.Config.MaxEventSize))
	}
	return errs
}

// ApplyTo sets c's policy and backend from validated options. Without a
// policy file, or without a backend, nothing is audited (c keeps no
// backend) and Audit-ID is still set.
func (o *Audit) ApplyTo(lg *zap.Logger, c *audit.Config) error {
	if o.PolicyFile == "" {
		if o.Log.Path != "" || o.Webhook.ConfigFile != "" {
			lg.Warn("no --audit-policy-file: no audit events will be recorded")
		}
		return nil
	}
	p, err := policy.LoadFile(o.PolicyFile)
	if err != nil {
		return err
	}
	var backends []audit.Backend
	if o.Log.Path != "" {
		b, err := o.Log.backend(lg.Named("log"), c.Metrics)
		if err != nil {
			return err
		}
		backends = append(backends, b)
	}
	if o.Webhook.ConfigFile != "" {
		b, err := o.Webhook.backend(lg.Named("webhook"), c.Metrics)
		if err != nil {
			return err
		}
		backends = append(backends, b)
	}
	if len(backends) == 0 {
		lg.Warn("--audit-policy-file without --audit-log-path or --audit-webhook-config-file: no audit events will be recorded")
		return nil
	}
	c.Policy, c.Backend = policy.New(p), audit.Union(backends...)
	lg.Info("auditing", zap.String("policy", o.PolicyFile), zap.Stringer("backend", c.Backend))
	return nil
}

func (o *AuditLog) backend(lg *zap.Logger, m *audit.Metrics) (audit.Backend, error) {
	var w io.Writer = os.Stdout
	if o.Path != "-" {
		// Fail at start, not at the first request, when the file cannot
		// be written.
		f, err := os.OpenFile(o.Path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, fmt.Errorf("--audit-log-path: %w", err)
		}
		if err := f.Close(); err != nil {
			return nil, fmt.Errorf("--audit-log-path: %w", err)
		}
		w = &lumberjack.Logger{Filename: o.Path, MaxAge: o.MaxAge, MaxBackups: o.MaxBackups, MaxSize: o.MaxSize, Compress: o.Compress}
	}
	b := auditlog.New(lg, w, o.Format, o.Version, m)
	return o.Truncate.wrap(lg, o.Batch.wrap(lg, b, m), m), nil
}

func (o *AuditWebhook) backend(lg *zap.Logger, m *audit.Metrics) (audit.Backend, error) {
	b, err := webhook.New(lg, webhook.Config{KubeconfigPath: o.ConfigFile, APIVersion: o.Version, InitialBackoff: o.InitialBackoff}, m)
	if err != nil {
		return nil, err
	}
	return o.Truncate.wrap(lg, o.Batch.wrap(lg, b, m), m), nil
}

func (o *AuditBatch) wrap(lg *zap.Logger, b audit.Backend, m *audit.Metrics) audit.Backend {
	switch o.Mode {
	case AuditModeBlockingStrict:
		return b
	case AuditModeBlocking:
		return audit.IgnoreErrors(b)
	}
	return buffered.New(lg, b, o.Config, m)
}

func (o *AuditTruncate) wrap(lg *zap.Logger, b audit.Backend, m *audit.Metrics) audit.Backend {
	if !o.Enabled {
		return b
	}
	return truncate.New(lg, b, o.Config, m)
}

package options

import (
	"fmt"

	"github.com/spf13/pflag"

	"platform.io/client/codec/protobuf"
	"platform.io/client/rest"
)

// Generic is how the daemon reaches the API server.
type Generic struct {
	Kubeconfig  string
	Master      string
	QPS         float32
	Burst       int
	ContentType string
}

// NewGeneric returns the defaults.
func NewGeneric(d Defaults) *Generic {
	return &Generic{QPS: d.QPS, Burst: d.Burst, ContentType: rest.ContentTypeProtobuf}
}

// AddFlags registers the client flags.
func (o *Generic) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "Path to a kubeconfig file naming the API server and the credentials to use. Empty (with --master empty) means the in-cluster service account.")
	fs.StringVar(&o.Master, "master", o.Master, "Address of the API server; overrides the server in --kubeconfig.")
	fs.Float32Var(&o.QPS, "platform-api-qps", o.QPS, "Queries per second allowed to the API server.")
	fs.IntVar(&o.Burst, "platform-api-burst", o.Burst, "Queries allowed in a burst above --platform-api-qps.")
	fs.StringVar(&o.ContentType, "platform-api-content-type", o.ContentType, "Content type of requests sent to the API server: "+rest.ContentTypeProtobuf+" or "+rest.ContentTypeJSON+".")
}

// Validate checks the client options.
func (o *Generic) Validate() []error {
	var errs []error
	if o.QPS < 0 {
		errs = append(errs, fmt.Errorf("--platform-api-qps: %g must not be negative", o.QPS))
	}
	if o.Burst < 0 {
		errs = append(errs, fmt.Errorf("--platform-api-burst: %d must not be negative", o.Burst))
	}
	switch o.ContentType {
	case rest.ContentTypeProtobuf, rest.ContentTypeJSON, protobuf.UpstreamMediaType:
	default:
		errs = append(errs, fmt.Errorf("--platform-api-content-type: %q is neither %s nor %s", o.ContentType, rest.ContentTypeProtobuf, rest.ContentTypeJSON))
	}
	return errs
}

// RESTConfig returns the client configuration the options describe.
func (o *Generic) RESTConfig() (*rest.Config, error) {
	cfg, err := rest.ConfigFromFlags(o.Master, o.Kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("--kubeconfig/--master: %w", err)
	}
	cfg.QPS, cfg.Burst, cfg.ContentType = o.QPS, o.Burst, o.ContentType
	return cfg, nil
}

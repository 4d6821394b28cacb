package options

import (
	"fmt"
	"slices"
	"time"

	"github.com/spf13/pflag"
)

// The authorization modes, as upstream names them.
const (
	ModeAlwaysAllow = "AlwaysAllow"
	ModeAlwaysDeny  = "AlwaysDeny"
	ModeABAC        = "ABAC"
	ModeWebhook     = "Webhook"
	ModeRBAC        = "RBAC"
	ModeNode        = "Node"
)

// AuthorizationModes are the modes --authorization-mode accepts.
func AuthorizationModes() []string {
	return []string{ModeAlwaysAllow, ModeAlwaysDeny, ModeABAC, ModeWebhook, ModeRBAC, ModeNode}
}

// Authorization configures the ordered chain of authorizers.
type Authorization struct {
	Modes                       []string
	PolicyFile                  string
	WebhookConfigFile           string
	WebhookVersion              string
	WebhookCacheAuthorizedTTL   time.Duration
	WebhookCacheUnauthorizedTTL time.Duration
}

// NewAuthorization returns the spec's defaults.
func NewAuthorization() *Authorization {
	return &Authorization{
		Modes: []string{ModeAlwaysAllow}, WebhookVersion: "v1beta1",
		WebhookCacheAuthorizedTTL: 5 * time.Minute, WebhookCacheUnauthorizedTTL: 30 * time.Second,
	}
}

// AddFlags registers the authorization flags.
func (o *Authorization) AddFlags(fs *pflag.FlagSet) {
	fs.StringSliceVar(&o.Modes, "authorization-mode", o.Modes, "Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,ABAC,Webhook,RBAC,Node.")
	fs.StringVar(&o.PolicyFile, "authorization-policy-file", o.PolicyFile, "File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.")
	fs.StringVar(&o.WebhookConfigFile, "authorization-webhook-config-file", o.WebhookConfigFile, "File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server's secure port.")
	fs.StringVar(&o.WebhookVersion, "authorization-webhook-version", o.WebhookVersion, "The API version of the authorization.platform.io SubjectAccessReview to send to and expect from the webhook: v1beta1 or v1.")
	fs.DurationVar(&o.WebhookCacheAuthorizedTTL, "authorization-webhook-cache-authorized-ttl", o.WebhookCacheAuthorizedTTL, "The duration to cache 'authorized' responses from the webhook authorizer.")
	fs.DurationVar(&o.WebhookCacheUnauthorizedTTL, "authorization-webhook-cache-unauthorized-ttl", o.WebhookCacheUnauthorizedTTL, "The duration to cache 'unauthorized' responses from the webhook authorizer.")
}

// Validate checks the modes as upstream does: at least one, each known
// and given once, ABAC and Webhook with their files and the files only
// with their modes.
func (o *Authorization) Validate() []error {
	var errs []error
	if len(o.Modes) == 0 {
		errs = append(errs, fmt.Errorf("--authorization-mode: at least one mode must be given"))
	}
	known := AuthorizationModes()
	for i, m := range o.Modes {
		if !slices.Contains(known, m) {
			errs = append(errs, fmt.Errorf("--authorization-mode: %q is not a valid mode (valid: %v)", m, known))
		}
		if slices.Index(o.Modes, m) != i {
			errs = append(errs, fmt.Errorf("--authorization-mode: %q is given more than once", m))
		}
	}
	has := func(m string) bool { return slices.Contains(o.Modes, m) }
	if has(ModeABAC) && o.PolicyFile == "" {
		errs = append(errs, fmt.Errorf("--authorization-policy-file: required by authorization mode ABAC"))
	}
	if !has(ModeABAC) && o.PolicyFile != "" {
		errs = append(errs, fmt.Errorf("--authorization-policy-file: given without authorization mode ABAC"))
	}
	if has(ModeWebhook) && o.WebhookConfigFile == "" {
		errs = append(errs, fmt.Errorf("--authorization-webhook-config-file: required by authorization mode Webhook"))
	}
	if !has(ModeWebhook) && o.WebhookConfigFile != "" {
		errs = append(errs, fmt.Errorf("--authorization-webhook-config-file: given without authorization mode Webhook"))
	}
	if o.WebhookVersion != "v1" && o.WebhookVersion != "v1beta1" {
		errs = append(errs, fmt.Errorf("--authorization-webhook-version: %q is neither v1beta1 nor v1", o.WebhookVersion))
	}
	if o.WebhookCacheAuthorizedTTL < 0 || o.WebhookCacheUnauthorizedTTL < 0 {
		errs = append(errs, fmt.Errorf("--authorization-webhook-cache-authorized-ttl and --authorization-webhook-cache-unauthorized-ttl must not be negative"))
	}
	return errs
}

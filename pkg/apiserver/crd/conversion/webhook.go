package conversion

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	arv1 "platform.io/client/api/admissionregistration/v1"
	apiextv1 "platform.io/client/api/apiextensions/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
)

// Timeout bounds one call to a conversion webhook, as upstream's webhook
// client does (a definition cannot set it).
const Timeout = 30 * time.Second

// Poster posts a JSON body to a webhook and returns the answer's body: the
// admission webhooks' client (URL or Service, caBundle, connection pools).
type Poster interface {
	Post(ctx context.Context, cc *arv1.WebhookClientConfig, body []byte) ([]byte, int, error)
}

// Caller makes the conversion webhooks of definitions. It is safe for
// concurrent use.
type Caller struct {
	post     Poster
	duration *prometheus.HistogramVec
}

// NewCaller returns a caller posting with p, its metric registered with
// reg (nil registers nothing).
func NewCaller(p Poster, reg prometheus.Registerer) (*Caller, error) {
	d := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "apiserver_crd_conversion_webhook_duration_seconds",
		Help:    "CRD webhook conversion duration in seconds",
		Buckets: prometheus.ExponentialBuckets(0.001, 2, 15),
	}, []string{"crd_name", "from_version", "to_version", "succeeded"})
	if reg != nil {
		if err := reg.Register(d); err != nil {
			return nil, fmt.Errorf("conversion: register metric: %w", err)
		}
	}
	return &Caller{post: p, duration: d}, nil
}

// Webhook is the conversion webhook of one definition.
type Webhook struct {
	c       *Caller
	crd     string
	cc      arv1.WebhookClientConfig
	version string
}

// For returns the webhook of crd, whose strategy must be Webhook.
func (c *Caller) For(crd *apiextv1.CustomResourceDefinition) (*Webhook, error) {
	conv := crd.Spec.Conversion
	if conv == nil || conv.Webhook == nil || conv.Webhook.ClientConfig == nil {
		return nil, fmt.Errorf("conversion: %s has no conversion webhook", crd.Name)
	}
	v, err := Choose(conv.Webhook.ConversionReviewVersions)
	if err != nil {
		return nil, fmt.Errorf("conversion: %s: %w", crd.Name, err)
	}
	return &Webhook{c: c, crd: crd.Name, cc: clientConfig(conv.Webhook.ClientConfig), version: v}, nil
}

// clientConfig is cc in the form the admission webhooks' client takes;
// the two types have the same fields.
func clientConfig(cc *apiextv1.WebhookClientConfig) arv1.WebhookClientConfig {
	out := arv1.WebhookClientConfig{URL: cc.URL, CABundle: cc.CABundle}
	if s := cc.Service; s != nil {
		out.Service = &arv1.ServiceReference{Namespace: s.Namespace, Name: s.Name, Path: s.Path, Port: s.Port}
	}
	return out
}

// Convert returns objs in the apiVersion desired, in their order, each
// converted object made by newObj. Objects already in that version are
// returned as they are; the others are sent in one ConversionReview, and
// none is returned unless the whole answer passes the checks.
func (w *Webhook) Convert(ctx context.Context, objs []*instance.Object, desired string, newObj func() *instance.Object) ([]*instance.Object, error) {
	var send []int
	for i, o := range objs {
		if o.APIVersion != desired {
			send = append(send, i)
		}
	}
	if len(send) == 0 {
		return objs, nil
	}
	first := objs[send[0]]
	what := first.APIVersion + ", Kind=" + first.Kind
	start := time.Now()
	out, err := w.call(ctx, objs, send, desired, newObj)
	w.c.duration.WithLabelValues(w.crd, meta.ParseGroupVersion(first.APIVersion).Version, meta.ParseGroupVersion(desired).Version,
		strconv.FormatBool(err == nil)).Observe(time.Since(start).Seconds())
	if err != nil {
		return nil, fmt.Errorf("conversion webhook for %s %w", what, err)
	}
	return out, nil
}

// call sends objs[send] and checks the answer. Its errors complete the
// sentence "conversion webhook for <what> ...".
func (w *Webhook) call(ctx context.Context, objs []*instance.Object, send []int, desired string, newObj func() *instance.Object) ([]*instance.Object, error) {
	req := &Request{UID: meta.UID(uuid.NewString()), DesiredAPIVersion: desired, Objects: make([]json.RawMessage, len(send))}
	for j, i := range send {
		b, err := json.Marshal(objs[i])
		if err != nil {
			return nil, fmt.Errorf("failed: encode object %d: %w", i, err)
		}
		req.Objects[j] = b
	}
	body, err := json.Marshal(&Review{TypeMeta: meta.TypeMeta{APIVersion: Group + "/" + w.version, Kind: "ConversionReview"}, Request: req})
	if err != nil {
		return nil, fmt.Errorf("failed: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	answer, _, err := w.c.post.Post(ctx, &w.cc, body)
	if err != nil {
		return nil, fmt.Errorf("failed: %w", err)
	}
	converted, err := parseAnswer(answer, w.version, req.UID)
	if err != nil {
		return nil, fmt.Errorf("failed: %w", err)
	}
	if len(converted) != len(send) {
		return nil, fmt.Errorf("returned %d objects, expected %d", len(converted), len(send))
	}
	out := make([]*instance.Object, len(objs))
	copy(out, objs)
	for j, i := range send {
		o, err := checkConverted(objs[i], converted[j], desired, newObj)
		if err != nil {
			return nil, fmt.Errorf("returned invalid converted object at index %d: %w", j, err)
		}
		out[i] = o
	}
	return out, nil
}

// checkConverted decodes the webhook's conversion of original and checks
// it as upstream does: the desired apiVersion, the same kind, name,
// namespace and uid. The result keeps original's metadata but for the
// labels and annotations the webhook set, which must be valid.
func checkConverted(original *instance.Object, raw json.RawMessage, desired string, newObj func() *instance.Object) (*instance.Object, error) {
	o := newObj()
	if err := json.Unmarshal(raw, o); err != nil {
		return nil, err
	}
	if o.APIVersion != desired {
		return nil, fmt.Errorf("invalid groupVersion (expected %s, received %s)", desired, o.APIVersion)
	}
	if o.Kind != original.Kind {
		return nil, fmt.Errorf("invalid kind (expected %s, received %s)", original.Kind, o.Kind)
	}
	for _, f := range []struct{ name, want, got string }{
		{"name", original.Name, o.Name},
		{"namespace", original.Namespace, o.Namespace},
		{"UID", string(original.UID), string(o.UID)},
	} {
		if f.want != f.got {
			return nil, fmt.Errorf("must have the same %s: %s != %s", f.name, f.want, f.got)
		}
	}
	if err := restoreMeta(&original.ObjectMeta, &o.ObjectMeta); err != nil {
		return nil, fmt.Errorf("invalid metadata: %w", err)
	}
	return o, nil
}

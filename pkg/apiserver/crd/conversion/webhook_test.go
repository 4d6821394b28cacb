package conversion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	arv1 "platform.io/client/api/admissionregistration/v1"
	apiextv1 "platform.io/client/api/apiextensions/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
)

// answerer answers each review with what its function makes of the
// request, recording the reviews it got.
type answerer struct {
	answer func(r *Review) any
	got    []Review
}

func (a *answerer) Post(_ context.Context, _ *arv1.WebhookClientConfig, body []byte) ([]byte, int, error) {
	var r Review
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, 0, err
	}
	a.got = append(a.got, r)
	out := a.answer(&r)
	if err, ok := out.(error); ok {
		return nil, 0, err
	}
	if b, ok := out.([]byte); ok {
		return b, 200, nil
	}
	b, err := json.Marshal(out)
	return b, 200, err
}

// convertAll answers in kind: each object with the desired apiVersion
// and edit applied to its JSON tree.
func convertAll(edit func(i int, o map[string]any)) func(r *Review) any {
	return func(r *Review) any {
		resp := &Response{UID: r.Request.UID, Result: meta.Status{Status: meta.StatusSuccess}}
		for i, raw := range r.Request.Objects {
			var o map[string]any
			_ = json.Unmarshal(raw, &o)
			o["apiVersion"] = r.Request.DesiredAPIVersion
			if edit != nil {
				edit(i, o)
			}
			b, _ := json.Marshal(o)
			resp.ConvertedObjects = append(resp.ConvertedObjects, b)
		}
		return &Review{TypeMeta: r.TypeMeta, Response: resp}
	}
}

func object(version, name string) *instance.Object {
	return &instance.Object{
		TypeMeta: meta.TypeMeta{APIVersion: "example.com/" + version, Kind: "Thing"},
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", UID: meta.UID("uid-" + name), ResourceVersion: "7",
			Labels: map[string]string{"a": "1"}, Finalizers: []string{"keep"}},
		Content: map[string]any{"spec": map[string]any{"x": int64(1)}},
	}
}

func definition(reviewVersions ...string) *apiextv1.CustomResourceDefinition {
	url := "https://127.0.0.1/convert"
	return &apiextv1.CustomResourceDefinition{ObjectMeta: meta.ObjectMeta{Name: "things.example.com"},
		Spec: apiextv1.CustomResourceDefinitionSpec{Conversion: &apiextv1.CustomResourceConversion{Strategy: apiextv1.WebhookConverter,
			Webhook: &apiextv1.WebhookConversion{ClientConfig: &apiextv1.WebhookClientConfig{URL: &url}, ConversionReviewVersions: reviewVersions}}}}
}

func TestConvert(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  func(r *Review) any
		wantErr string // "" for success
	}{
		{"converted", convertAll(nil), ""},
		{"labels and annotations may change", convertAll(func(_ int, o map[string]any) {
			o["metadata"].(map[string]any)["labels"] = map[string]any{"b": "2"}
			o["metadata"].(map[string]any)["annotations"] = map[string]any{"note": "x"}
		}), ""},
		{"other metadata is restored", convertAll(func(_ int, o map[string]any) {
			m := o["metadata"].(map[string]any)
			m["finalizers"], m["resourceVersion"], m["generation"] = []any{"other"}, "99", 5
		}), ""},
		{"unreachable", func(*Review) any { return errors.New("dial tcp: connection refused") }, "conversion webhook for example.com/v1, Kind=Thing failed: dial tcp: connection refused"},
		{"not a review", func(*Review) any { return []byte("<html>") }, "failed: decode ConversionReview"},
		{"wrong kind of review", func(r *Review) any {
			out := convertAll(nil)(r).(*Review)
			out.Kind = "AdmissionReview"
			return out
		}, "expected webhook response of apiextensions.platform.io/v1, Kind=ConversionReview, got apiextensions.platform.io/v1, Kind=AdmissionReview"},
		{"answer in upstream's group", func(r *Review) any {
			out := convertAll(nil)(r).(*Review)
			out.APIVersion = UpstreamGroup + "/v1"
			return out
		}, ""},
		{"no response", func(r *Review) any { return &Review{TypeMeta: r.TypeMeta} }, "failed: no response provided"},
		{"wrong uid", func(r *Review) any {
			out := convertAll(nil)(r).(*Review)
			out.Response.UID = "other"
			return out
		}, `expected response.uid=`},
		{"failure result", func(r *Review) any {
			return &Review{TypeMeta: r.TypeMeta, Response: &Response{UID: r.Request.UID, Result: meta.Status{Status: meta.StatusFailure, Message: "cannot convert x"}}}
		}, "failed: cannot convert x"},
		{"failure without message", func(r *Review) any {
			return &Review{TypeMeta: r.TypeMeta, Response: &Response{UID: r.Request.UID}}
		}, "response.result.status was '', not 'Success'"},
		{"one object missing", func(r *Review) any {
			out := convertAll(nil)(r).(*Review)
			out.Response.ConvertedObjects = out.Response.ConvertedObjects[:1]
			return out
		}, "returned 1 objects, expected 2"},
		{"wrong apiVersion", convertAll(func(_ int, o map[string]any) { o["apiVersion"] = "example.com/v1" }),
			"invalid converted object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v1)"},
		{"wrong kind", convertAll(func(i int, o map[string]any) {
			if i == 1 {
				o["kind"] = "Other"
			}
		}), "at index 1: invalid kind (expected Thing, received Other)"},
		{"changed name", convertAll(func(_ int, o map[string]any) { o["metadata"].(map[string]any)["name"] = "renamed" }), "must have the same name: a != renamed"},
		{"changed namespace", convertAll(func(_ int, o map[string]any) { o["metadata"].(map[string]any)["namespace"] = "x" }), "must have the same namespace: ns != x"},
		{"changed uid", convertAll(func(_ int, o map[string]any) { o["metadata"].(map[string]any)["uid"] = "u" }), "must have the same UID: uid-a != u"},
		{"invalid label", convertAll(func(_ int, o map[string]any) {
			o["metadata"].(map[string]any)["labels"] = map[string]any{"a": "not valid!"}
		}), "invalid metadata: [metadata.labels[a]: Invalid value"},
		{"metadata not an object", convertAll(func(_ int, o map[string]any) { o["metadata"] = "x" }), "at index 0: metadata"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := prometheus.NewRegistry()
			a := &answerer{answer: tc.answer}
			c, err := NewCaller(a, reg)
			if err != nil {
				t.Fatal(err)
			}
			w, err := c.For(definition("v1"))
			if err != nil {
				t.Fatal(err)
			}
			// The second object is in the desired version already: it is
			// not sent.
			in := []*instance.Object{object("v1", "a"), object("v2", "b"), object("v1", "c")}
			out, err := w.Convert(context.Background(), in, "example.com/v2", func() *instance.Object { return &instance.Object{} })
			if len(a.got) != 1 || len(a.got[0].Request.Objects) != 2 || a.got[0].APIVersion != "apiextensions.platform.io/v1" || a.got[0].Kind != "ConversionReview" {
				t.Fatalf("reviews sent: %+v", a.got)
			}
			succeeded := "true"
			if tc.wantErr != "" {
				succeeded = "false"
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				if !strings.HasPrefix(err.Error(), "conversion webhook for example.com/v1, Kind=Thing ") {
					t.Errorf("error %q does not name the webhook's definition and input", err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if len(out) != 3 || out[1] != in[1] {
					t.Fatalf("out %v", out)
				}
				for _, i := range []int{0, 2} {
					o := out[i]
					if o.APIVersion != "example.com/v2" || o.Name != in[i].Name || o.ResourceVersion != "7" || len(o.Finalizers) != 1 || o.Finalizers[0] != "keep" {
						t.Errorf("object %d: %+v", i, o)
					}
				}
			}
			if got := observations(t, reg); got != "things.example.com v1 v2 "+succeeded+": 1" {
				t.Errorf("metric: %q", got)
			}
		})
	}
}

// observations renders the series of the duration histogram as
// "<crd> <from> <to> <succeeded>: <count>", one a line.
func observations(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, mf := range mfs {
		if mf.GetName() != "apiserver_crd_conversion_webhook_duration_seconds" {
			continue
		}
		for _, m := range mf.GetMetric() {
			l := map[string]string{}
			for _, p := range m.GetLabel() {
				l[p.GetName()] = p.GetValue()
			}
			lines = append(lines, fmt.Sprintf("%s %s %s %s: %d", l["crd_name"], l["from_version"], l["to_version"], l["succeeded"], m.GetHistogram().GetSampleCount()))
		}
	}
	return strings.Join(lines, "\n")
}

// A definition that lists only v1beta1 gets v1beta1 reviews, whose
// answers upstream never held to the uid.
func TestConvertV1beta1(t *testing.T) {
	a := &answerer{answer: func(r *Review) any {
		out := convertAll(nil)(r).(*Review)
		out.Response.UID = ""
		return out
	}}
	c, err := NewCaller(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.For(definition("v2", "v1beta1"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := w.Convert(context.Background(), []*instance.Object{object("v1", "a")}, "example.com/v2", func() *instance.Object { return &instance.Object{} })
	if err != nil || len(out) != 1 || out[0].APIVersion != "example.com/v2" {
		t.Fatalf("converted %v, %v", out, err)
	}
	if len(a.got) != 1 || a.got[0].APIVersion != "apiextensions.platform.io/v1beta1" {
		t.Errorf("reviews %+v", a.got)
	}
	if _, err := c.For(definition("v2")); !errors.Is(err, ErrNoVersion) {
		t.Errorf("a definition without a known review version: %v", err)
	}
}

// Objects already in the desired version are not sent; with none left,
// no review is made.
func TestConvertNothingToSend(t *testing.T) {
	a := &answerer{answer: convertAll(nil)}
	c, _ := NewCaller(a, nil)
	w, _ := c.For(definition("v1"))
	in := []*instance.Object{object("v2", "a")}
	out, err := w.Convert(context.Background(), in, "example.com/v2", func() *instance.Object { return &instance.Object{} })
	if err != nil || len(out) != 1 || out[0] != in[0] || len(a.got) != 0 {
		t.Errorf("out %v, err %v, reviews %d", out, err, len(a.got))
	}
}

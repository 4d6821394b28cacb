package badinput

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"sigs.k8s.io/yaml"

	appsv1 "platform.io/client/api/apps/v1"
	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/codec/protobuf"
)

// file is one category of the corpus.
type file struct {
	Cases []badCase `json:"cases"`
}

// badCase is one bad request and the answer it must get. Body and Path
// are text/templates (see templateFuncs) so that large, deep or binary bodies
// can be written in a line.
type badCase struct {
	Name    string            `json:"name"`
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Code    int               `json:"code"`
	Reason  string            `json:"reason"`

	// file is where the case was read from; body the rendered body.
	file string
	body []byte
}

// templateFuncs are the helpers case bodies may use.
var templateFuncs = template.FuncMap{
	// repeat returns s n times.
	"repeat": func(s string, n int) string { return strings.Repeat(s, n) },
	// nest wraps inner in n pairs of open and close.
	"nest": func(open, close string, n int, inner string) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	},
	// bytes returns the raw bytes written in hex ("ff fe").
	"bytes": func(hex string) (string, error) {
		var out []byte
		for _, h := range strings.Fields(hex) {
			var b byte
			if _, err := fmt.Sscanf(h, "%02x", &b); err != nil {
				return "", fmt.Errorf("hex byte %q: %w", h, err)
			}
			out = append(out, b)
		}
		return string(out), nil
	},
	// proto decodes doc (JSON) as a goType and encodes it in the protobuf
	// envelope with the given apiVersion and kind.
	"proto": func(goType, apiVersion, kind, doc string) (string, error) {
		newMsg, ok := protoTypes[goType]
		if !ok {
			return "", fmt.Errorf("no protobuf type %q", goType)
		}
		m := newMsg()
		if err := json.Unmarshal([]byte(doc), m); err != nil {
			return "", fmt.Errorf("proto %s: %w", goType, err)
		}
		return string(protobuf.Encode(apiVersion, kind, m)), nil
	},
	// envelope wraps raw content bytes (from bytes) in the envelope.
	"envelope": func(apiVersion, kind, content string) string {
		return string(protobuf.Encode(apiVersion, kind, rawMessage(content)))
	},
}

// protoTypes are the Go types proto can encode.
var protoTypes = map[string]func() protobuf.Message{
	"ConfigMap":  func() protobuf.Message { return new(corev1.ConfigMap) },
	"Secret":     func() protobuf.Message { return new(corev1.Secret) },
	"Pod":        func() protobuf.Message { return new(corev1.Pod) },
	"Deployment": func() protobuf.Message { return new(appsv1.Deployment) },
	"CronJob":    func() protobuf.Message { return new(batchv1.CronJob) },
}

// rawMessage is content given as bytes.
type rawMessage string

func (r rawMessage) MarshalProto(b []byte) []byte { return append(b, r...) }
func (r rawMessage) UnmarshalProto([]byte) error  { return nil }

// loadCorpus reads every testdata/*.yaml file and renders the bodies.
func loadCorpus(t *testing.T) []badCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus files in testdata: %v", err)
	}
	var all []badCase
	names := map[string]bool{}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var f file
		if err := yaml.UnmarshalStrict(data, &f); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, c := range f.Cases {
			c.file = filepath.Base(path)
			if err := c.complete(); err != nil {
				t.Fatalf("%s: case %q: %v", path, c.Name, err)
			}
			id := c.file + "/" + c.Name
			if names[id] {
				t.Fatalf("%s: case %q is there twice", path, c.Name)
			}
			names[id] = true
			all = append(all, c)
		}
	}
	return all
}

// complete checks the case and renders its body.
func (c *badCase) complete() error {
	if c.Name == "" || c.Path == "" {
		return fmt.Errorf("name and path are required")
	}
	if c.Code < 400 || c.Code > 499 {
		return fmt.Errorf("expected code %d is not a 4xx", c.Code)
	}
	if c.Method == "" {
		c.Method = "GET"
	}
	body, err := render(c.Name, c.Body)
	if err != nil {
		return err
	}
	c.body = []byte(body)
	if c.Path, err = render(c.Name, c.Path); err != nil {
		return err
	}
	return nil
}

// render executes text as a template with templateFuncs.
func render(name, text string) (string, error) {
	tpl, err := template.New(name).Funcs(templateFuncs).Parse(text)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := tpl.Execute(&buf, nil); err != nil {
		return "", err
	}
	return buf.String(), nil
}

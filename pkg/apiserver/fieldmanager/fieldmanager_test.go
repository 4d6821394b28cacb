package fieldmanager_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/openapi"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apps/deployment"
	"platform.io/platform/pkg/apiserver/registry/core/configmap"
	"platform.io/platform/pkg/component/version"
)

// clock is a manual clock: each reading is one second after the last.
type clock struct{ t time.Time }

func (c *clock) now() time.Time {
	c.t = c.t.Add(time.Second)
	return c.t
}

func newManager(t *testing.T, r *registry.Resource) *fieldmanager.FieldManager {
	t.Helper()
	ts, err := openapi.BuildTypedSchema([]*registry.Resource{r})
	if err != nil {
		t.Fatal(err)
	}
	pt, ok := ts.Type(r.GroupVersionKind())
	if !ok {
		t.Fatalf("no typed schema for %v", r.GroupVersionKind())
	}
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	cfg := fieldmanager.Config{Type: pt, APIVersion: r.GroupVersion().String(), Kind: r.Kind,
		New: r.New, HasStatus: r.HasStatus, Now: c.now}
	if scale, ok := ts.ScaleType(); ok {
		cfg.Scale = &scale
	}
	return fieldmanager.New(zap.NewNop(), cfg)
}

// step is one write in a sequence on one object.
type step struct {
	// apply is an applied configuration (JSON); scale an applied
	// autoscaling/v1 Scale (JSON) of a Deployment; otherwise update is the
	// whole new object (JSON), as a PUT sends it.
	apply, scale, update string
	manager              string
	subresource          string
	force                bool
	// wantConflicts lists "field manager" causes of a 409.
	wantConflicts []string
	// keepManaged sends the live managedFields with an update.
	keepManaged bool
	// wantOwners maps each manager entry ("manager/Operation") to the
	// leaf fields it owns, in fieldsV1 paths; nil skips the check.
	wantOwners map[string][]string
	// want checks the stored object.
	want func(t *testing.T, obj meta.Object)
}

// run writes the steps in order on one object, each through a field
// manager with its fast paths and one without (fieldmanager.SlowPath),
// and checks both give the same object, managedFields included.
func run(t *testing.T, r *registry.Resource, steps []step) {
	t.Helper()
	fast, slow := newManager(t, r), fieldmanager.SlowPath(newManager(t, r))
	var live, slowLive meta.Object
	for i, s := range steps {
		obj, err := write(t, r, fast, live, s)
		slowObj, slowErr := write(t, r, slow, slowLive, s)
		if fmt.Sprint(err) != fmt.Sprint(slowErr) {
			t.Fatalf("step %d: fast path error %v, slow path error %v", i, err, slowErr)
		}
		if err == nil {
			a, _ := json.Marshal(obj)
			b, _ := json.Marshal(slowObj)
			if string(a) != string(b) {
				t.Fatalf("step %d: fast path wrote\n%s\nslow path wrote\n%s", i, a, b)
			}
		}
		if s.wantConflicts != nil {
			checkConflicts(t, i, err, s.wantConflicts)
			continue
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		live, slowLive = obj, slowObj
		if s.wantOwners != nil {
			if got := owners(t, obj); !equalOwners(got, s.wantOwners) {
				t.Fatalf("step %d: owners = %v, want %v", i, got, s.wantOwners)
			}
		}
		if s.want != nil {
			s.want(t, obj)
		}
	}
}

// write makes one step's write on live (nil before the first) with fm.
func write(t *testing.T, r *registry.Resource, fm *fieldmanager.FieldManager, live meta.Object, s step) (meta.Object, error) {
	t.Helper()
	var cur meta.Object
	if live != nil {
		cur = clone(t, r, live)
	}
	switch {
	case s.apply != "":
		return fm.Apply(cur, []byte(s.apply), s.manager, s.subresource, s.force)
	case s.scale != "":
		return applyScale(fm, cur.(*appsv1.Deployment), s.scale, s.manager, s.force)
	}
	obj := r.New()
	if err := json.Unmarshal([]byte(s.update), obj); err != nil {
		t.Fatal(err)
	}
	if s.keepManaged && cur != nil {
		// As a patch or an update of what was read sends them.
		obj.GetObjectMeta().ManagedFields = cur.GetObjectMeta().ManagedFields
	}
	fm.Update(cur, obj, s.manager, s.subresource)
	return obj, nil
}

func clone(t *testing.T, r *registry.Resource, obj meta.Object) meta.Object {
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	out := r.New()
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func checkConflicts(t *testing.T, i int, err error, want []string) {
	t.Helper()
	se, ok := err.(*apierrors.StatusError)
	if !ok || se.ErrStatus.Code != http.StatusConflict || se.ErrStatus.Details == nil {
		t.Fatalf("step %d: err = %v, want a 409 with causes", i, err)
	}
	var got []string
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type != meta.CauseTypeFieldManagerConflict {
			t.Fatalf("step %d: cause type %q", i, c.Type)
		}
		got = append(got, c.Field+" "+c.Message)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("step %d: conflicts\n%s\nwant\n%s", i, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// owners lists each entry's leaf fields as dotted fieldsV1 paths.
func owners(t *testing.T, obj meta.Object) map[string][]string {
	out := map[string][]string{}
	for _, e := range obj.GetObjectMeta().ManagedFields {
		var tree map[string]any
		if err := json.Unmarshal(e.FieldsV1.Raw, &tree); err != nil {
			t.Fatal(err)
		}
		key := e.Manager + "/" + e.Operation
		if e.Subresource != "" {
			key += "/" + e.Subresource
		}
		out[key] = leaves("", tree)
		sort.Strings(out[key])
	}
	return out
}

func leaves(prefix string, tree map[string]any) []string {
	var out []string
	for k, v := range tree {
		if k == "." {
			continue
		}
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		sub, _ := v.(map[string]any)
		if len(sub) == 0 || (len(sub) == 1 && sub["."] != nil) {
			out = append(out, p)
			continue
		}
		out = append(out, leaves(p, sub)...)
	}
	return out
}

func equalOwners(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w := append([]string(nil), b[k]...)
		sort.Strings(w)
		if strings.Join(v, ",") != strings.Join(w, ",") {
			return false
		}
	}
	return true
}

func cm(data string) string {
	return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns"},"data":{` + data + `}}`
}

func cmData(t *testing.T, obj meta.Object) map[string]string {
	return obj.(*corev1.ConfigMap).Data
}

func wantData(want map[string]string) func(*testing.T, meta.Object) {
	return func(t *testing.T, obj meta.Object) {
		t.Helper()
		got := cmData(t, obj)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("data = %v, want %v", got, want)
		}
	}
}

func TestConfigMapOwnership(t *testing.T) {
	r := configmap.Resource()
	tests := []struct {
		name  string
		steps []step
	}{
		{"apply creates and owns what it set", []step{
			{apply: cm(`"a":"1","b":"2"`), manager: "alice",
				wantOwners: map[string][]string{"alice/Apply": {"f:data.f:a", "f:data.f:b"}},
				want:       wantData(map[string]string{"a": "1", "b": "2"})},
		}},
		{"an update owns what it changed", []step{
			{apply: cm(`"a":"1"`), manager: "alice"},
			{update: cm(`"a":"1","x":"9"`), manager: "bob",
				wantOwners: map[string][]string{"alice/Apply": {"f:data.f:a"}, "bob/Update": {"f:data.f:x"}}},
		}},
		{"a create by update owns everything set", []step{
			{update: cm(`"a":"1"`), manager: "bob",
				wantOwners: map[string][]string{"bob/Update": {"f:data.f:a"}}},
		}},
		{"apply of another's field conflicts, one cause per field", []step{
			{update: cm(`"a":"1","b":"2"`), manager: "bob"},
			{apply: cm(`"a":"x","b":"y"`), manager: "alice", wantConflicts: []string{
				`.data.a conflict with "bob" using v1`, `.data.b conflict with "bob" using v1`}},
		}},
		{"the same value shares ownership without a conflict", []step{
			{update: cm(`"a":"1"`), manager: "bob"},
			{apply: cm(`"a":"1"`), manager: "alice",
				wantOwners: map[string][]string{"alice/Apply": {"f:data.f:a"}, "bob/Update": {"f:data.f:a"}}},
		}},
		{"force takes ownership", []step{
			{update: cm(`"a":"1","b":"2"`), manager: "bob"},
			{apply: cm(`"a":"x"`), manager: "alice", force: true,
				wantOwners: map[string][]string{"alice/Apply": {"f:data.f:a"}, "bob/Update": {"f:data.f:b"}},
				want:       wantData(map[string]string{"a": "x", "b": "2"})},
		}},
		{"two appliers conflict until forced", []step{
			{apply: cm(`"a":"1"`), manager: "alice"},
			{apply: cm(`"a":"2"`), manager: "carol", wantConflicts: []string{`.data.a conflict with "alice"`}},
			{apply: cm(`"a":"2"`), manager: "carol", force: true,
				wantOwners: map[string][]string{"carol/Apply": {"f:data.f:a"}}},
		}},
		{"a field dropped from the configuration is removed", []step{
			{apply: cm(`"a":"1","b":"2"`), manager: "alice"},
			{apply: cm(`"a":"1"`), manager: "alice",
				wantOwners: map[string][]string{"alice/Apply": {"f:data.f:a"}},
				want:       wantData(map[string]string{"a": "1"})},
		}},
		{"a dropped field another applier owns stays", []step{
			{apply: cm(`"a":"1","b":"2"`), manager: "alice"},
			{apply: cm(`"b":"2"`), manager: "carol"},
			{apply: cm(`"a":"1"`), manager: "alice",
				wantOwners: map[string][]string{"alice/Apply": {"f:data.f:a"}, "carol/Apply": {"f:data.f:b"}},
				want:       wantData(map[string]string{"a": "1", "b": "2"})},
		}},
		{"an empty managedFields list resets ownership", []step{
			{apply: cm(`"a":"1"`), manager: "alice"},
			{update: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns","managedFields":[]},"data":{"a":"1"}}`,
				manager: "bob", wantOwners: map[string][]string{}},
		}},
		{"managedFields sent on update replace the stored ones", []step{
			{apply: cm(`"a":"1"`), manager: "alice"},
			{update: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns","managedFields":[{"manager":"dave","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]},"data":{"a":"1"}}`,
				manager: "bob", wantOwners: map[string][]string{"dave/Update": {"f:data.f:a"}}},
		}},
		{"client-side apply's fields migrate to kubectl", []step{
			{update: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\"},\"data\":{\"a\":\"1\"}}"}},"data":{"a":"1"}}`,
				manager: "kubectl-client-side-apply"},
			{apply: cm(`"a":"2"`), manager: "carol", wantConflicts: []string{`.data.a conflict with "kubectl-client-side-apply" using v1`}},
			{apply: cm(`"a":"2"`), manager: "kubectl",
				wantOwners: map[string][]string{"kubectl/Apply": {"f:data.f:a"}, "kubectl-client-side-apply/Update": {"f:data", "f:metadata.f:annotations.f:kubectl.kubernetes.io/last-applied-configuration"}},
				want: func(t *testing.T, obj meta.Object) {
					got := obj.GetObjectMeta().Annotations["kubectl.kubernetes.io/last-applied-configuration"]
					if !strings.Contains(got, `"a":"2"`) {
						t.Fatalf("last-applied annotation not synced: %s", got)
					}
				}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { run(t, r, tt.steps) })
	}
}

func deploy(containers string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"ns"},"spec":{"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[` + containers + `]}}}}`
}

func containerNames(t *testing.T, obj meta.Object) []string {
	var out []string
	for _, c := range obj.(*appsv1.Deployment).Spec.Template.Spec.Containers {
		out = append(out, c.Name+"="+c.Image)
	}
	return out
}

func wantContainers(want ...string) func(*testing.T, meta.Object) {
	return func(t *testing.T, obj meta.Object) {
		t.Helper()
		if got := containerNames(t, obj); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("containers = %v, want %v", got, want)
		}
	}
}

func TestListMapMerge(t *testing.T) {
	r := deployment.Resource()
	const app, side = `{"name":"app","image":"app:1"}`, `{"name":"side","image":"side:1"}`
	tests := []struct {
		name  string
		steps []step
	}{
		{"appliers own their own items of a keyed list", []step{
			{apply: deploy(app), manager: "alice"},
			{apply: deploy(side), manager: "carol", want: wantContainers("app=app:1", "side=side:1")},
		}},
		{"an item dropped by its only applier is removed, others stay", []step{
			{apply: deploy(app), manager: "alice"},
			{apply: deploy(side), manager: "carol"},
			{apply: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"ns"}}`, manager: "alice",
				want: wantContainers("side=side:1")},
		}},
		{"a field of another's item conflicts by key", []step{
			{apply: deploy(app), manager: "alice"},
			{apply: deploy(`{"name":"app","image":"app:2"}`), manager: "carol", wantConflicts: []string{
				`.spec.template.spec.containers[name="app"].image conflict with "alice"`}},
		}},
		{"status is not owned through the main resource", []step{
			{apply: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"ns"},"status":{"replicas":3}}`, manager: "alice",
				wantOwners: map[string][]string{}},
		}},
		{"status apply owns only status", []step{
			{apply: deploy(app), manager: "alice"},
			{apply: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"ns"},"status":{"replicas":3}}`, manager: "ctl", subresource: "status",
				want: func(t *testing.T, obj meta.Object) {
					if got := owners(t, obj)["ctl/Apply/status"]; strings.Join(got, ",") != "f:status.f:replicas" {
						t.Fatalf("status owner fields = %v", got)
					}
				}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { run(t, r, tt.steps) })
	}
}

func TestApplyRejects(t *testing.T) {
	fm := newManager(t, configmap.Resource())
	tests := []struct{ name, config, want string }{
		{"wrong version", `{"apiVersion":"v2","kind":"ConfigMap","metadata":{"name":"c"}}`, "Incorrect version"},
		{"wrong kind", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"c"}}`, "Incorrect kind"},
		{"managedFields set", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","managedFields":[{"manager":"x"}]}}`, "metadata.managedFields must be nil"},
		{"unknown field", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"dta":{}}`, "field not declared in schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fm.Apply(nil, []byte(tt.config), "m", "", false)
			se, ok := err.(*apierrors.StatusError)
			if !ok || se.ErrStatus.Code != http.StatusBadRequest || !strings.Contains(se.ErrStatus.Message, tt.want) {
				t.Fatalf("err = %v, want a 400 saying %q", err, tt.want)
			}
		})
	}
}

func TestUpdateManagersCapped(t *testing.T) {
	r := configmap.Resource()
	var steps []step
	for i := 0; i < 14; i++ {
		steps = append(steps, step{update: cm(fmt.Sprintf(`"k%d":"v"`, i)), manager: fmt.Sprintf("m%02d", i)})
	}
	// Each update replaces data whole, so every manager owns one key.
	steps[len(steps)-1].want = func(t *testing.T, obj meta.Object) {
		entries := obj.GetObjectMeta().ManagedFields
		if len(entries) > 10 {
			t.Fatalf("%d update entries, want at most 10", len(entries))
		}
	}
	run(t, r, steps)

	// Fourteen managers each adding a key: the oldest land in ancient-changes.
	fm := newManager(t, r)
	var live meta.Object
	data := ""
	for i := 0; i < 14; i++ {
		if data != "" {
			data += ","
		}
		data += fmt.Sprintf(`"k%02d":"v"`, i)
		obj := r.New()
		if err := json.Unmarshal([]byte(cm(data)), obj); err != nil {
			t.Fatal(err)
		}
		fm.Update(live, obj, fmt.Sprintf("m%02d", i), "")
		live = obj
	}
	got := owners(t, live)
	if len(got) != 10 {
		t.Fatalf("%d entries, want 10: %v", len(got), got)
	}
	anc := got["ancient-changes/Update"]
	if strings.Join(anc, ",") != "f:data.f:k00,f:data.f:k01,f:data.f:k02,f:data.f:k03,f:data.f:k04" {
		t.Fatalf("ancient-changes owns %v", anc)
	}
}

func TestManagerFor(t *testing.T) {
	tests := []struct{ param, ua, want string }{
		{"", "platform-scheduler/v1.2.3 (linux/amd64) platform/abc1234", "platform-scheduler"},
		{"", "platform-controller-manager/v1.2.3 (linux/amd64) platform/abc1234/leader-election", "platform-controller-manager"},
		{"", "kubectl/v1.30.0 (linux/amd64) kubernetes/abc", "kubectl"},
		{"kubectl", "kubectl/v1.30.0 (linux/amd64) kubernetes/abc", "kubectl"},
		{"", "", ""},
	}
	// The daemons' own User-Agents name them.
	for _, daemon := range []string{"platform-scheduler", "platform-controller-manager", "platform-cloud-controller-manager"} {
		tests = append(tests, struct{ param, ua, want string }{"", version.Get().UserAgent(daemon), daemon})
		tests = append(tests, struct{ param, ua, want string }{"", version.Get().UserAgent(daemon) + "/leader-election", daemon})
	}
	for _, tt := range tests {
		if got := fieldmanager.ManagerFor(tt.param, tt.ua); got != tt.want {
			t.Errorf("ManagerFor(%q, %q) = %q, want %q", tt.param, tt.ua, got, tt.want)
		}
	}
}

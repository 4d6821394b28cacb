package leaderelection

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// fakeClient is an in-memory API server for locks: objects stored as JSON
// under resource/namespace/name, with a resourceVersion checked on update.
type fakeClient struct {
	mu   sync.Mutex
	objs map[string][]byte
	rv   int
	sent []meta.TypeMeta // the TypeMeta of every body written
}

func newFakeClient() *fakeClient { return &fakeClient{objs: map[string][]byte{}} }

func fakeKey(res Resource, ns, name string) string { return res.Resource + "/" + ns + "/" + name }

func (f *fakeClient) Get(_ context.Context, res Resource, ns, name string, out any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	data, ok := f.objs[fakeKey(res, ns, name)]
	if !ok {
		return apierrors.NewNotFound(meta.GroupResource{Group: res.Group, Resource: res.Resource}, name)
	}
	return json.Unmarshal(data, out)
}

func (f *fakeClient) Create(ctx context.Context, res Resource, ns string, obj, out any) error {
	name := obj.(meta.Object).GetObjectMeta().Name
	return f.write(res, ns, name, obj, out, true)
}

func (f *fakeClient) Update(ctx context.Context, res Resource, ns, name string, obj, out any) error {
	return f.write(res, ns, name, obj, out, false)
}

func (f *fakeClient) write(res Resource, ns, name string, obj, out any, create bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	gr := meta.GroupResource{Group: res.Group, Resource: res.Resource}
	k := fakeKey(res, ns, name)
	old, exists := f.objs[k]
	switch {
	case create && exists:
		return apierrors.NewAlreadyExists(gr, name)
	case !create && !exists:
		return apierrors.NewNotFound(gr, name)
	case !create:
		var m struct {
			meta.ObjectMeta `json:"metadata"`
		}
		if err := json.Unmarshal(old, &m); err != nil {
			return err
		}
		if obj.(meta.Object).GetObjectMeta().ResourceVersion != m.ResourceVersion {
			return apierrors.NewConflict(gr, name, errors.New("the object has been modified"))
		}
	}
	f.sent = append(f.sent, *obj.(meta.Object).GetTypeMeta())
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	f.rv++
	md, _ := m["metadata"].(map[string]any)
	md["resourceVersion"] = strconv.Itoa(f.rv)
	if data, err = json.Marshal(m); err != nil {
		return err
	}
	f.objs[k] = data
	return json.Unmarshal(data, out)
}

// raw returns the stored JSON of an object.
func (f *fakeClient) raw(resource, ns, name string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var m map[string]any
	_ = json.Unmarshal(f.objs[resource+"/"+ns+"/"+name], &m)
	return m
}

func mustLock(t *testing.T, kind, id string, c Client) Lock {
	t.Helper()
	l, err := NewLock(kind, "", "ctrl", id, c)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestNewLock(t *testing.T) {
	c := newFakeClient()
	cases := []struct {
		kind, name, identity string
		client               Client
		wantDescribe         string
		wantErr              string
	}{
		{LeasesLock, "ctrl", "a", c, "platform-system/ctrl", ""},
		{EndpointsLock, "ctrl", "a", c, "platform-system/ctrl", ""},
		{ConfigMapsLock, "ctrl", "a", c, "platform-system/ctrl", ""},
		{EndpointsLeasesLock, "ctrl", "a", c, "platform-system/ctrl, platform-system/ctrl", ""},
		{ConfigMapsLeasesLock, "ctrl", "a", c, "platform-system/ctrl, platform-system/ctrl", ""},
		{"lease", "ctrl", "a", c, "", `unknown lock kind "lease" (want one of leases, endpoints, configmaps, endpointsleases, configmapsleases)`},
		{"", "ctrl", "a", c, "", "unknown lock kind"},
		{LeasesLock, "", "a", c, "", "name is empty"},
		{LeasesLock, "ctrl", "", c, "", "identity is empty"},
		{LeasesLock, "ctrl", "a", nil, "", "client is nil"},
	}
	for _, tc := range cases {
		l, err := NewLock(tc.kind, "", tc.name, tc.identity, tc.client)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("NewLock(%q, %q, %q): %v, want %q", tc.kind, tc.name, tc.identity, err, tc.wantErr)
			}
			if strings.HasPrefix(tc.wantErr, "unknown") && !errors.Is(err, ErrUnknownLockKind) {
				t.Errorf("NewLock(%q): %v does not wrap ErrUnknownLockKind", tc.kind, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("NewLock(%q): %v", tc.kind, err)
		}
		if l.Describe() != tc.wantDescribe || l.Identity() != tc.identity {
			t.Errorf("%s: Describe %q Identity %q", tc.kind, l.Describe(), l.Identity())
		}
	}
}

// sameRecord compares records with times equal by instant (decoding gives
// them the local zone).
func sameRecord(a, b LeaderElectionRecord) bool {
	return a.HolderIdentity == b.HolderIdentity && a.LeaseDurationSeconds == b.LeaseDurationSeconds &&
		a.AcquireTime.Equal(b.AcquireTime.Time) && a.RenewTime.Equal(b.RenewTime.Time) &&
		a.LeaderTransitions == b.LeaderTransitions
}

func testRecord(holder string, at time.Time) LeaderElectionRecord {
	return LeaderElectionRecord{HolderIdentity: holder, LeaseDurationSeconds: 15,
		AcquireTime: micro(at), RenewTime: micro(at.Add(1500 * time.Microsecond)), LeaderTransitions: 2}
}

// TestLockKinds: every kind creates, reads and replaces its record with
// compare-and-swap, and its raw bytes change exactly with the record.
func TestLockKinds(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2024, 5, 1, 10, 0, 0, 123456000, time.UTC)
	for _, kind := range LockKinds() {
		t.Run(kind, func(t *testing.T) {
			c := newFakeClient()
			a, b := mustLock(t, kind, "a", c), mustLock(t, kind, "b", c)
			if _, _, err := a.Get(ctx); !apierrors.IsNotFound(err) {
				t.Fatalf("Get before Create: %v, want NotFound", err)
			}
			if err := a.Update(ctx, testRecord("a", at)); err == nil {
				t.Fatal("Update before any read succeeded")
			}
			if err := a.Create(ctx, testRecord("a", at)); err != nil {
				t.Fatal(err)
			}
			if err := b.Create(ctx, testRecord("b", at)); !apierrors.IsAlreadyExists(err) {
				t.Fatalf("second Create: %v, want AlreadyExists", err)
			}
			rec, raw1, err := b.Get(ctx)
			if err != nil || !sameRecord(*rec, testRecord("a", at)) {
				t.Fatalf("Get: %+v, %v; want %+v", rec, err, testRecord("a", at))
			}
			if _, raw2, _ := a.Get(ctx); string(raw1) != string(raw2) {
				t.Errorf("raw bytes of one record differ: %s, %s", raw1, raw2)
			}
			next := testRecord("a", at.Add(time.Microsecond))
			if err := a.Update(ctx, next); err != nil {
				t.Fatal(err)
			}
			if err := b.Update(ctx, testRecord("b", at)); !apierrors.IsConflict(err) {
				t.Fatalf("Update from a stale read: %v, want Conflict", err)
			}
			rec, raw3, err := b.Get(ctx)
			if err != nil || !sameRecord(*rec, next) || string(raw3) == string(raw1) {
				t.Fatalf("after Update: %+v, %v, raw %s (was %s)", rec, err, raw3, raw1)
			}
			if err := b.Update(ctx, testRecord("b", at)); err != nil {
				t.Fatalf("Update after a fresh read: %v", err)
			}
			for _, tm := range c.sent {
				if tm.Kind == "" || tm.APIVersion == "" {
					t.Errorf("body sent without TypeMeta: %+v", c.sent)
				}
			}
		})
	}
}

// TestAnnotationWireFormat: the record sits in the annotation as upstream
// writes it, other annotations are kept, and upstream's records (second
// precision) are read.
func TestAnnotationWireFormat(t *testing.T) {
	ctx := context.Background()
	for _, kind := range []string{EndpointsLock, ConfigMapsLock} {
		c := newFakeClient()
		res := map[string]string{EndpointsLock: "endpoints", ConfigMapsLock: "configmaps"}[kind]
		upstream := `{"holderIdentity":"node-1_0f6c","leaseDurationSeconds":15,"acquireTime":"2024-05-01T10:00:00Z","renewTime":"2024-05-01T10:00:05Z","leaderTransitions":3}`
		obj := meta.ObjectMeta{Name: "ctrl", Namespace: DefaultNamespace, Annotations: map[string]string{LeaderAnnotationKey: upstream, "keep": "me"}}
		var body any = &corev1.Endpoints{TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Endpoints"}, ObjectMeta: obj}
		if kind == ConfigMapsLock {
			body = &corev1.ConfigMap{TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: obj}
		}
		if err := c.Create(ctx, Resource{Version: "v1", Resource: res}, DefaultNamespace, body, body); err != nil {
			t.Fatal(err)
		}
		l := mustLock(t, kind, "a", c)
		rec, raw, err := l.Get(ctx)
		want := LeaderElectionRecord{HolderIdentity: "node-1_0f6c", LeaseDurationSeconds: 15,
			AcquireTime: micro(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)), RenewTime: micro(time.Date(2024, 5, 1, 10, 0, 5, 0, time.UTC)), LeaderTransitions: 3}
		if err != nil || !sameRecord(*rec, want) || string(raw) != upstream {
			t.Fatalf("%s: read upstream record: %+v, %q, %v", kind, rec, raw, err)
		}
		if err := l.Update(ctx, testRecord("a", want.RenewTime.Time)); err != nil {
			t.Fatal(err)
		}
		md := c.raw(res, DefaultNamespace, "ctrl")["metadata"].(map[string]any)
		ann := md["annotations"].(map[string]any)
		var fields map[string]any
		if err := json.Unmarshal([]byte(ann[LeaderAnnotationKey].(string)), &fields); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"holderIdentity", "leaseDurationSeconds", "acquireTime", "renewTime", "leaderTransitions"} {
			if _, ok := fields[f]; !ok {
				t.Errorf("%s: annotation %v lacks %q", kind, fields, f)
			}
		}
		if ann["keep"] != "me" || fields["renewTime"] != "2024-05-01T10:00:05.001500Z" {
			t.Errorf("%s: annotations %v", kind, ann)
		}
	}
}

func TestAnnotationRead(t *testing.T) {
	cases := []struct {
		name        string
		annotations map[string]string
		wantHolder  string
		wantRaw     string
	}{
		{"no annotation", nil, "", ""},
		{"other annotations only", map[string]string{"x": "y"}, "", ""},
		{"garbled", map[string]string{LeaderAnnotationKey: "{not json"}, UnknownLeader, "{not json"},
		{"empty holder", map[string]string{LeaderAnnotationKey: `{"holderIdentity":"","leaseDurationSeconds":1}`}, "", `{"holderIdentity":"","leaseDurationSeconds":1}`},
	}
	for _, tc := range cases {
		rec, raw := readAnnotation(&meta.ObjectMeta{Annotations: tc.annotations})
		if rec.HolderIdentity != tc.wantHolder || string(raw) != tc.wantRaw {
			t.Errorf("%s: holder %q raw %q", tc.name, rec.HolderIdentity, raw)
		}
	}
}

// TestLeaseMapping: the record maps onto the Lease spec, to the
// microsecond, and fields the record does not own survive an update.
func TestLeaseMapping(t *testing.T) {
	ctx := context.Background()
	c := newFakeClient()
	l := mustLock(t, LeasesLock, "a", c)
	at := time.Date(2024, 5, 1, 10, 0, 0, 123456000, time.UTC)
	if err := l.Create(ctx, testRecord("a", at)); err != nil {
		t.Fatal(err)
	}
	spec := c.raw("leases", DefaultNamespace, "ctrl")["spec"].(map[string]any)
	want := map[string]any{"holderIdentity": "a", "leaseDurationSeconds": 15.0, "leaseTransitions": 2.0,
		"acquireTime": "2024-05-01T10:00:00.123456Z", "renewTime": "2024-05-01T10:00:00.124956Z"}
	for k, v := range want {
		if spec[k] != v {
			t.Errorf("spec.%s = %v, want %v", k, spec[k], v)
		}
	}
	var lease coordinationv1.Lease
	gv := coordinationv1.SchemeGroupVersion
	res := Resource{Group: gv.Group, Version: gv.Version, Resource: "leases"}
	if err := c.Get(ctx, res, DefaultNamespace, "ctrl", &lease); err != nil {
		t.Fatal(err)
	}
	strategy, preferred := coordinationv1.OldestEmulationVersion, "b"
	lease.Spec.Strategy, lease.Spec.PreferredHolder = &strategy, &preferred
	if err := c.Update(ctx, res, DefaultNamespace, "ctrl", &lease, &lease); err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Get(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Update(ctx, testRecord("a", at.Add(time.Second))); err != nil {
		t.Fatal(err)
	}
	spec = c.raw("leases", DefaultNamespace, "ctrl")["spec"].(map[string]any)
	if spec["strategy"] != string(strategy) || spec["preferredHolder"] != "b" || spec["renewTime"] != "2024-05-01T10:00:01.124956Z" {
		t.Errorf("spec after update: %v", spec)
	}
}

func TestNewIdentity(t *testing.T) {
	a, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewIdentity()
	re := regexp.MustCompile(`^.+_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if !re.MatchString(a) || a == b {
		t.Errorf("identities %q, %q", a, b)
	}
}

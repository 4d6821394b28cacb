package audit

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/audit/truncate"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

var (
	received = auditv1.StageRequestReceived
	started  = auditv1.StageResponseStarted
	complete = auditv1.StageResponseComplete
)

// TestLogLevelsAndStages reads the log back for requests of each level
// the policy gives: the stages, the bodies each level records, the
// response status, the object reference and the user.
func TestLogLevelsAndStages(t *testing.T) {
	t.Parallel()
	var path string
	s := framework.Start(t, withLog(t, &path))

	// A request the policy does not audit still gets its Audit-ID back.
	none := auditID("none")
	r := s.Do(t, "GET", "/api/v1/namespaces/default", nil, none).Expect(t, http.StatusOK)
	if got := r.Header.Get("Audit-ID"); got != idOf(none) {
		t.Errorf("Audit-ID = %q, want the client's %q", got, idOf(none))
	}
	if got := s.Do(t, "GET", "/api/v1/namespaces/default", nil).Header.Get("Audit-ID"); len(got) != 36 {
		t.Errorf("Audit-ID = %q, want a new UUID", got)
	}

	tests := []struct {
		name, method, path string
		body               any
		code               int
		level              auditv1.Level
		stages             []auditv1.Stage
		verb               string
		ref                *auditv1.ObjectReference
		request, response  bool
		reason             string
	}{
		{name: "create at RequestResponse", method: "POST", path: "/api/v1/namespaces/default/configmaps", body: configMap("cm1", 10), code: 201,
			level: auditv1.LevelRequestResponse, stages: []auditv1.Stage{received, complete}, verb: "create",
			ref: &auditv1.ObjectReference{Resource: "configmaps", Namespace: "default", Name: "cm1", APIVersion: "v1"}, request: true, response: true},
		{name: "create at Request", method: "POST", path: "/api/v1/namespaces/default/secrets",
			body: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s1"}}, code: 201,
			level: auditv1.LevelRequest, stages: []auditv1.Stage{received, complete}, verb: "create",
			ref: &auditv1.ObjectReference{Resource: "secrets", Namespace: "default", Name: "s1", APIVersion: "v1"}, request: true},
		{name: "list at Metadata", method: "GET", path: "/api/v1/namespaces/default/pods", code: 200,
			level: auditv1.LevelMetadata, stages: []auditv1.Stage{received, complete}, verb: "list",
			ref: &auditv1.ObjectReference{Resource: "pods", Namespace: "default", APIVersion: "v1"}},
		{name: "omitted stage", method: "GET", path: "/api/v1/namespaces/default/services", code: 200,
			level: auditv1.LevelMetadata, stages: []auditv1.Stage{complete}, verb: "list",
			ref: &auditv1.ObjectReference{Resource: "services", Namespace: "default", APIVersion: "v1"}},
		{name: "failure keeps its Status", method: "GET", path: "/api/v1/namespaces/default/configmaps/missing", code: 404,
			level: auditv1.LevelRequestResponse, stages: []auditv1.Stage{received, complete}, verb: "get",
			ref: &auditv1.ObjectReference{Resource: "configmaps", Namespace: "default", Name: "missing", APIVersion: "v1"}, response: true, reason: "NotFound"},
		{name: "non-resource", method: "GET", path: "/version", code: 200,
			level: auditv1.LevelMetadata, stages: []auditv1.Stage{received, complete}, verb: "get"},
		{name: "group resource", method: "GET", path: "/apis/apps/v1/namespaces/default/deployments/d", code: 404,
			level: auditv1.LevelMetadata, stages: []auditv1.Stage{received, complete}, verb: "get",
			ref: &auditv1.ObjectReference{Resource: "deployments", Namespace: "default", Name: "d", APIGroup: "apps", APIVersion: "v1"}, reason: "NotFound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := auditID("req")
			s.Do(t, tt.method, tt.path, tt.body, id, framework.Header{"User-Agent": "audit-test"}).Expect(t, tt.code)
			got := waitEvents(t, path, idOf(id), complete)
			if diff := cmp.Diff(tt.stages, stagesOf(got)); diff != "" {
				t.Fatalf("stages (-want +got):\n%s", diff)
			}
			for _, ev := range got {
				if ev.APIVersion != "audit.platform.io/v1" || ev.Kind != "Event" {
					t.Errorf("%s: apiVersion %q kind %q", ev.Stage, ev.APIVersion, ev.Kind)
				}
				if ev.Level != tt.level || ev.Verb != tt.verb || ev.RequestURI != tt.path || ev.UserAgent != "audit-test" {
					t.Errorf("%s: level %s verb %q uri %q agent %q", ev.Stage, ev.Level, ev.Verb, ev.RequestURI, ev.UserAgent)
				}
				if ev.User.Username != "system:unsecured" || !slices.Contains(ev.SourceIPs, "127.0.0.1") {
					t.Errorf("%s: user %+v sourceIPs %v", ev.Stage, ev.User, ev.SourceIPs)
				}
				if diff := cmp.Diff(tt.ref, ev.ObjectRef); diff != "" {
					t.Errorf("%s: objectRef (-want +got):\n%s", ev.Stage, diff)
				}
				if ev.StageTimestamp.Before(ev.RequestReceivedTimestamp.Time) || ev.RequestReceivedTimestamp.IsZero() {
					t.Errorf("%s: timestamps %v %v", ev.Stage, ev.RequestReceivedTimestamp, ev.StageTimestamp)
				}
				if (ev.RequestObject != nil) != tt.request {
					t.Errorf("%s: requestObject %s, want present %v", ev.Stage, ev.RequestObject, tt.request)
				}
			}
			last := got[len(got)-1]
			if last.ResponseStatus == nil || last.ResponseStatus.Code != int32(tt.code) || string(last.ResponseStatus.Reason) != tt.reason {
				t.Errorf("responseStatus = %+v, want code %d reason %q", last.ResponseStatus, tt.code, tt.reason)
			}
			if (last.ResponseObject != nil) != tt.response {
				t.Errorf("responseObject %s, want present %v", last.ResponseObject, tt.response)
			}
			if tt.request {
				var obj map[string]any
				if err := json.Unmarshal(last.RequestObject, &obj); err != nil || obj["kind"] == nil {
					t.Errorf("requestObject %s is not the body", last.RequestObject)
				}
			}
			if got[0].Stage == received && got[0].ResponseStatus != nil {
				t.Errorf("RequestReceived has a responseStatus: %+v", got[0].ResponseStatus)
			}
		})
	}
	if got := eventsOf(readEvents(t, path), idOf(none)); len(got) != 0 {
		t.Errorf("a request at level None was recorded: %+v", got)
	}
}

// TestWatchResponseStarted: a watch is recorded when its response starts,
// and again when it ends.
func TestWatchResponseStarted(t *testing.T) {
	t.Parallel()
	var path string
	s := framework.Start(t, withLog(t, &path))
	id := auditID("watch")
	s.Do(t, "GET", "/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1", nil, id).Expect(t, http.StatusOK)
	got := waitEvents(t, path, idOf(id), complete)
	if diff := cmp.Diff([]auditv1.Stage{received, started, complete}, stagesOf(got)); diff != "" {
		t.Fatalf("stages (-want +got):\n%s", diff)
	}
	if got[1].ResponseStatus == nil || got[1].ResponseStatus.Code != 200 || got[1].Verb != "watch" {
		t.Errorf("ResponseStarted: %+v", got[1])
	}
}

// TestRotation: with --audit-log-maxsize 1 the file is rotated once it
// reaches a megabyte, keeping --audit-log-maxbackup files, and no event is
// lost across the rotations.
func TestRotation(t *testing.T) {
	t.Parallel()
	var path string
	s := framework.Start(t, withLog(t, &path, func(a *options.Audit) { a.Log.MaxSize = 1; a.Log.MaxBackups = 10 }))
	const n = 12 // each create records about 300 KB
	var ids []string
	for i := range n {
		id := auditID("rot")
		ids = append(ids, idOf(id))
		s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", configMap("big-"+string(rune('a'+i)), 100<<10), id).Expect(t, 201)
	}
	var files []string
	framework.Eventually(t, 10*time.Second, "rotated files", func() bool {
		files, _ = filepath.Glob(filepath.Join(filepath.Dir(path), "audit*.log"))
		return len(files) >= 3
	})
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > 1<<20 {
			t.Errorf("%s is %d bytes, over the 1 MB limit", f, st.Size())
		}
	}
	var all []auditv1.Event
	framework.Eventually(t, 10*time.Second, "every event in some file", func() bool {
		all = readEvents(t, files...)
		return len(eventsOf(all, ids[n-1])) == 2
	})
	for _, id := range ids {
		if got := stagesOf(eventsOf(all, id)); !slices.Equal(got, []auditv1.Stage{received, complete}) {
			t.Errorf("%s: stages %v across %d files", id, got, len(files))
		}
	}
}

// TestTruncation: an event over --audit-log-truncate-max-event-size loses
// its objects and says so; a small one keeps them.
func TestTruncation(t *testing.T) {
	t.Parallel()
	var path string
	s := framework.Start(t, withLog(t, &path, func(a *options.Audit) {
		a.Log.Truncate.Enabled = true
		a.Log.Truncate.Config.MaxEventSize = 4096
	}))
	small, big := auditID("small"), auditID("big")
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", configMap("small", 10), small).Expect(t, 201)
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", configMap("big", 8<<10), big).Expect(t, 201)
	for _, ev := range waitEvents(t, path, idOf(small), complete) {
		if ev.RequestObject == nil || ev.Annotations[truncate.AnnotationTruncated] != "" {
			t.Errorf("small %s truncated: %+v", ev.Stage, ev)
		}
	}
	got := waitEvents(t, path, idOf(big), complete)
	if len(got) != 2 {
		t.Fatalf("big: %d events", len(got))
	}
	for _, ev := range got {
		if ev.RequestObject != nil || ev.ResponseObject != nil || ev.Annotations[truncate.AnnotationTruncated] != "true" {
			t.Errorf("big %s not truncated: objects %d/%d bytes, annotations %v", ev.Stage, len(ev.RequestObject), len(ev.ResponseObject), ev.Annotations)
		}
		if ev.ObjectRef == nil || ev.ObjectRef.Name != "big" {
			t.Errorf("big %s lost its metadata: %+v", ev.Stage, ev.ObjectRef)
		}
	}
}

// TestLegacyFormat: --audit-log-format legacy writes upstream's one line.
func TestLegacyFormat(t *testing.T) {
	t.Parallel()
	var path string
	s := framework.Start(t, withLog(t, &path, func(a *options.Audit) { a.Log.Format = "legacy" }))
	id := auditID("legacy")
	s.Do(t, "GET", "/api/v1/namespaces/default/pods", nil, id, framework.Header{"User-Agent": "audit-test"}).Expect(t, 200)
	want := regexp.MustCompile(`^\d{4}-\d\d-\d\dT[0-9:.]+Z AUDIT: id="` + regexp.QuoteMeta(idOf(id)) +
		`" stage="ResponseComplete" ip="127.0.0.1" method="list" user="system:unsecured" groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="audit-test" namespace="default" uri="/api/v1/namespaces/default/pods" response="200"$`)
	framework.Eventually(t, 10*time.Second, "legacy line", func() bool {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if want.MatchString(line) {
				return true
			}
		}
		return false
	})
}

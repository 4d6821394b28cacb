package fieldmanager_test

import (
	"encoding/json"
	"testing"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/batch/cronjob"
	"platform.io/platform/pkg/apiserver/registry/core/pod"
)

// cron is a CronJob of apiVersion with the given schedule and image.
func cron(apiVersion, schedule, image string) string {
	return `{"apiVersion":"` + apiVersion + `","kind":"CronJob","metadata":{"name":"c","namespace":"ns","labels":{"a":"b"}},"spec":{"schedule":"` + schedule +
		`","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"` + image + `"}]}}}}},"status":{"active":[{"name":"j"}]}}`
}

// TestUpdateAcrossVersions: an update through one served version of a
// kind takes fields from managers that wrote through another, the same
// through the fast path as through structured-merge-diff's updater.
func TestUpdateAcrossVersions(t *testing.T) {
	v1, v1beta1 := cronjob.Resources()
	old := newManager(t, v1beta1)
	for _, sub := range []string{"", "status"} {
		t.Run("subresource="+sub, func(t *testing.T) {
			live := v1beta1.New()
			if err := json.Unmarshal([]byte(cron("batch/v1beta1", "* * * * *", "a")), live); err != nil {
				t.Fatal(err)
			}
			old.Update(nil, live, "beta-writer", "")
			next := `{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"c","namespace":"ns","labels":{"a":"c"}},"spec":{"schedule":"0 * * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"a"}]}}}}},"status":{}}`
			sameUpdate(t, v1, newManager(t, v1), live, next, "v1-writer", sub)
		})
	}
}

// FuzzUpdateSameAsSlow: any update of a pod, carrying the managedFields
// of its create by another manager, records the same managedFields
// through the fast path as through the updater.
func FuzzUpdateSameAsSlow(f *testing.F) {
	const env = `{"name":"A","value":"1"},{"name":"B","value":"2"}`
	f.Add(podWith("", "app:1", env), podWith(`,"tier":"a"`, "app:1", env), false)
	f.Add(podWith("", "app:1", env), podWith("", "app:2", `{"name":"A","value":"1"}`), false)
	f.Add(podWith("", "app:1", env), podWith("", "app:1", env), true)
	f.Add(podWith(`,"x":"y"`, "app:1", env), `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},"spec":{"containers":[]},"status":{"phase":"Failed"}}`, true)
	r := pod.Resource()
	fm := newManager(&testing.T{}, r)
	f.Fuzz(func(t *testing.T, before, after string, status bool) {
		live := r.New()
		if json.Unmarshal([]byte(before), live) != nil {
			return
		}
		live.GetObjectMeta().ManagedFields = nil
		fm.Update(nil, live, "creator", "")
		sub := ""
		if status {
			sub = "status"
		}
		sameUpdate(t, r, fm, live, after, "updater", sub)
	})
}

// sameUpdate writes next (JSON; skipped when it does not decode) over
// live, carrying live's managedFields, as manager through subresource,
// with fm and with its slow path, and fails unless both record the same
// managedFields.
func sameUpdate(t *testing.T, r *registry.Resource, fm *fieldmanager.FieldManager, live meta.Object, next, manager, subresource string) {
	t.Helper()
	var got, want string
	for i, m := range []*fieldmanager.FieldManager{fm, fieldmanager.SlowPath(fm)} {
		obj := r.New()
		if json.Unmarshal([]byte(next), obj) != nil {
			return
		}
		obj.GetObjectMeta().ManagedFields = live.GetObjectMeta().ManagedFields
		m.Update(clone(t, r, live), obj, manager, subresource)
		if i == 0 {
			got = entriesJSON(t, obj)
		} else {
			want = entriesJSON(t, obj)
		}
	}
	if got != want {
		t.Fatalf("update to %s through %q:\nfast path %s\nslow path %s", next, subresource, got, want)
	}
}

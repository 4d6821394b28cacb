package fieldmanager_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"platform.io/platform/pkg/apiserver/registry/core/pod"
)

const benchPod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":{"app":"bench"%s}},"spec":{"containers":[{"name":"app","image":"registry.example/app:1.0","ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],"env":[{"name":"MODE","value":"bench"},{"name":"LEVEL","value":"info"}],"terminationMessagePath":"/dev/termination-log","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","dnsPolicy":"ClusterFirst","schedulerName":"default-scheduler"}}`

// BenchmarkUpdate is the cost managedFields add to one pod write: a
// create, and an update of one label.
func BenchmarkUpdate(b *testing.B) {
	r := pod.Resource()
	fm := newManager(&testing.T{}, r)
	b.Run("create", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			obj := r.New()
			_ = json.Unmarshal([]byte(fmt.Sprintf(benchPod, "")), obj)
			b.StartTimer()
			fm.Update(nil, obj, "m", "")
		}
	})
	base := r.New()
	_ = json.Unmarshal([]byte(fmt.Sprintf(benchPod, "")), base)
	fm.Update(nil, base, "m", "")
	b.Run("update", func(b *testing.B) {
		for i := range b.N {
			b.StopTimer()
			live := clone(&testing.T{}, r, base)
			obj := clone(&testing.T{}, r, base)
			obj.GetObjectMeta().Labels["rev"] = fmt.Sprint(i)
			b.StartTimer()
			fm.Update(live, obj, "n", "")
		}
	})
}

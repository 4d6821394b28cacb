package fieldmanager_test

import (
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/registry/core/pod"
)

// benchPod is the pod of BenchmarkManagedFieldsCost (test/bench) as the
// API server stores it, defaults and admission's tolerations included.
const benchPod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":{"app":"bench"%s}},"spec":{"containers":[{"name":"app","image":"registry.example/app:1.0","ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],"env":[{"name":"MODE","value":"bench"},{"name":"LEVEL","value":"info"}],"resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler","tolerations":[{"key":"node.platform.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},{"key":"node.platform.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},"status":{"phase":"Pending","qosClass":"BestEffort"}}`

// processCPU is the CPU time the process has used, user and system: on a
// shared machine a better measure of work done than the wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkUpdate is the cost managedFields add to one pod write: a
// create, and an update of one label carrying the stored managedFields
// (as a patch or a read-modify-write sends them), through the field
// manager's fast paths and without them ("slow"). Inputs are made before
// the timer starts; cpu-µs/op is the process's CPU time per write.
func BenchmarkUpdate(b *testing.B) {
	r := pod.Resource()
	for _, path := range []string{"fast", "slow"} {
		fm := newManager(&testing.T{}, r)
		if path == "slow" {
			fm = fieldmanager.SlowPath(fm)
		}
		newPod := func() meta.Object {
			obj := r.New()
			if err := json.Unmarshal([]byte(fmt.Sprintf(benchPod, "")), obj); err != nil {
				b.Fatal(err)
			}
			return obj
		}
		b.Run("create/"+path, func(b *testing.B) {
			objs := make([]meta.Object, b.N)
			for i := range objs {
				objs[i] = newPod()
			}
			measure(b, func(i int) { fm.Update(nil, objs[i], "m", "") })
		})
		base := newPod()
		fm.Update(nil, base, "m", "")
		b.Run("update/"+path, func(b *testing.B) {
			lives, objs := make([]meta.Object, b.N), make([]meta.Object, b.N)
			for i := range lives {
				lives[i], objs[i] = clone(&testing.T{}, r, base), clone(&testing.T{}, r, base)
				objs[i].GetObjectMeta().Labels["rev"] = fmt.Sprint(i)
			}
			measure(b, func(i int) { fm.Update(lives[i], objs[i], "n", "") })
		})
	}
}

// measure runs write b.N times and reports the CPU time per write.
func measure(b *testing.B, write func(i int)) {
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU()
	for i := range b.N {
		write(i)
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-start)/float64(b.N)/1e3, "cpu-µs/op")
}

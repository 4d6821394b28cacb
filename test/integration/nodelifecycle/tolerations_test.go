package nodelifecycle

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestDefaultTolerationsThroughTheAPI: a pod created through the API
// server gets the not-ready and unreachable NoExecute tolerations with the
// seconds of the server's flags, and a pod tolerating every taint gets none.
func TestDefaultTolerationsThroughTheAPI(t *testing.T) {
	t.Parallel()
	s := framework.Start(t, func(o *options.Options) {
		o.API.DefaultNotReadyTolerationSeconds = 11
		o.API.DefaultUnreachableTolerationSeconds = 22
	})
	pods := client.NewSet(s.RESTClient(t)).Pods.Namespace("default")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	secs := func(n int64) *int64 { return &n }
	cases := []struct {
		name string
		have []corev1.Toleration
		want []corev1.Toleration
	}{
		{"plain", nil, []corev1.Toleration{
			{Key: "node.platform.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: secs(11)},
			{Key: "node.platform.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: secs(22)},
		}},
		{"tolerates-all", []corev1.Toleration{{Operator: corev1.TolerationOpExists}}, []corev1.Toleration{{Operator: corev1.TolerationOpExists}}},
	}
	for _, tc := range cases {
		pod := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: tc.name}, Spec: corev1.PodSpec{
			Containers:  []corev1.Container{{Name: "c", Image: "busybox"}},
			Tolerations: tc.have,
		}}
		got, err := pods.Create(ctx, pod, meta.WriteOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, got.Spec.Tolerations); diff != "" {
			t.Errorf("%s: tolerations (-want +got):\n%s", tc.name, diff)
		}
	}
}

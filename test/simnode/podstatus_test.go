package simnode

import (
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// summary is the part of a step the table checks.
type summary struct {
	Phase      corev1.PodPhase
	Ready      string
	States     []string
	Restarts   []int32
	Delete     bool
	After      time.Duration
	NoChange   bool
	PodIP      string
	ExitCodes  []int32
	HasStarted bool
}

func summarize(pod *corev1.Pod, s step) summary {
	st := s.status
	out := summary{Delete: s.delete, After: s.after, NoChange: st == nil}
	if st == nil {
		st = &pod.Status
	}
	out.Phase, out.PodIP, out.HasStarted = st.Phase, st.PodIP, st.StartTime != nil
	for _, c := range st.Conditions {
		if c.Type == corev1.PodReady {
			out.Ready = string(c.Status)
		}
	}
	for _, cs := range st.ContainerStatuses {
		switch {
		case cs.State.Running != nil && cs.Ready:
			out.States = append(out.States, "running-ready")
		case cs.State.Running != nil:
			out.States = append(out.States, "running")
		case cs.State.Terminated != nil:
			out.States = append(out.States, "terminated")
			out.ExitCodes = append(out.ExitCodes, cs.State.Terminated.ExitCode)
		}
		out.Restarts = append(out.Restarts, cs.RestartCount)
	}
	return out
}

func TestNextStep(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	env := podEnv{hostIP: "172.16.0.1", podIP: "10.0.0.7", readinessDelay: 2 * time.Second, jobDuration: 10 * time.Second}
	yes := true
	pending := func(mod ...func(*corev1.Pod)) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: "ns", UID: "uid-1"},
			Spec:   corev1.PodSpec{NodeName: "n", RestartPolicy: corev1.RestartPolicyAlways, Containers: []corev1.Container{{Name: "c", Image: "img"}}},
			Status: corev1.PodStatus{Phase: corev1.PodPending}}
		for _, m := range mod {
			m(p)
		}
		return p
	}
	// run returns p as the agent leaves it after starting it at t0.
	run := func(p *corev1.Pod) *corev1.Pod {
		p.Status = *started(p, env, t0)
		return p
	}
	jobPod := func(p *corev1.Pod) {
		p.Spec.RestartPolicy = corev1.RestartPolicyNever
		p.OwnerReferences = []meta.OwnerReference{{Kind: "Job", Name: "j", UID: "j1", Controller: &yes}}
	}
	exit := func(code string, policy corev1.RestartPolicy) func(*corev1.Pod) {
		return func(p *corev1.Pod) {
			p.Spec.RestartPolicy = policy
			p.Annotations = map[string]string{AnnotationExitCode: code}
		}
	}
	deleting := func(at time.Time) func(*corev1.Pod) {
		return func(p *corev1.Pod) { d := meta.NewTime(at); p.DeletionTimestamp = &d }
	}
	cases := []struct {
		name string
		pod  *corev1.Pod
		now  time.Time
		want summary
	}{
		{"pending starts, not ready yet", pending(), t0, summary{Phase: corev1.PodRunning, Ready: "False", States: []string{"running"},
			Restarts: []int32{0}, After: 2 * time.Second, PodIP: "10.0.0.7", HasStarted: true}},
		{"ready after the delay", run(pending()), t0.Add(2 * time.Second), summary{Phase: corev1.PodRunning, Ready: "True",
			States: []string{"running-ready"}, Restarts: []int32{0}, PodIP: "10.0.0.7", HasStarted: true}},
		{"before the delay nothing changes", run(pending()), t0.Add(time.Second), summary{Phase: corev1.PodRunning, Ready: "False",
			States: []string{"running"}, Restarts: []int32{0}, After: time.Second, NoChange: true, PodIP: "10.0.0.7", HasStarted: true}},
		{"a job's pod succeeds", run(pending(jobPod)), t0.Add(10 * time.Second), summary{Phase: corev1.PodSucceeded, Ready: "False",
			States: []string{"terminated"}, Restarts: []int32{0}, ExitCodes: []int32{0}, PodIP: "10.0.0.7", HasStarted: true}},
		{"exit code under Never fails", run(pending(exit("3", corev1.RestartPolicyNever))), t0.Add(10 * time.Second),
			summary{Phase: corev1.PodFailed, Ready: "False", States: []string{"terminated"}, Restarts: []int32{0}, ExitCodes: []int32{3},
				PodIP: "10.0.0.7", HasStarted: true}},
		{"exit code under OnFailure restarts", run(pending(exit("1", corev1.RestartPolicyOnFailure))), t0.Add(10 * time.Second),
			summary{Phase: corev1.PodRunning, Ready: "False", States: []string{"running"}, Restarts: []int32{1}, After: 2 * time.Second,
				PodIP: "10.0.0.7", HasStarted: true}},
		{"restartCount is capped at 5", func() *corev1.Pod {
			p := run(pending(exit("1", corev1.RestartPolicyOnFailure)))
			p.Status.ContainerStatuses[0].RestartCount = 5
			return p
		}(), t0.Add(10 * time.Second), summary{Phase: corev1.PodRunning, Ready: "False", States: []string{"running"}, Restarts: []int32{5},
			After: 2 * time.Second, PodIP: "10.0.0.7", HasStarted: true}},
		{"an Always pod with an exit code runs on", run(pending(exit("1", corev1.RestartPolicyAlways))), t0.Add(10 * time.Second),
			summary{Phase: corev1.PodRunning, Ready: "True", States: []string{"running-ready"}, Restarts: []int32{0}, PodIP: "10.0.0.7", HasStarted: true}},
		{"deleted: containers end, wait for the grace period", run(pending(deleting(t0.Add(30 * time.Second)))), t0.Add(20 * time.Second),
			summary{Phase: corev1.PodRunning, Ready: "False", States: []string{"terminated"}, Restarts: []int32{0}, ExitCodes: []int32{0},
				After: 10 * time.Second, PodIP: "10.0.0.7", HasStarted: true}},
		{"deleted: confirmed after the grace period", run(pending(deleting(t0.Add(30 * time.Second)))), t0.Add(30 * time.Second),
			summary{Phase: corev1.PodRunning, Ready: "False", States: []string{"terminated"}, Restarts: []int32{0}, ExitCodes: []int32{0},
				Delete: true, PodIP: "10.0.0.7", HasStarted: true}},
		{"finished pods stay", func() *corev1.Pod { p := run(pending()); p.Status.Phase = corev1.PodSucceeded; return p }(), t0.Add(time.Hour),
			summary{Phase: corev1.PodSucceeded, Ready: "False", States: []string{"running"}, Restarts: []int32{0}, NoChange: true,
				PodIP: "10.0.0.7", HasStarted: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := summarize(tc.pod, step{})
			got := summarize(tc.pod, nextStep(tc.pod, env, tc.now))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("step (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, summarize(tc.pod, step{})); diff != "" {
				t.Errorf("nextStep changed its input:\n%s", diff)
			}
		})
	}
}

func TestContainerIDIsDockerAnd64Hex(t *testing.T) {
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{UID: "u"}}
	a, b := containerID(p, "c", 0), containerID(p, "c", 1)
	if !containerIDPattern.MatchString(a) || a == b {
		t.Errorf("ids %q %q", a, b)
	}
}

var containerIDPattern = regexp.MustCompile(`^docker://[0-9a-f]{64}$`)

package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/informer"
	"platform.io/client/rest"
)

// The HA test's steady workload.
const (
	haNamespace  = "default"
	haDeployment = "ha-web"
	// haWriteEvery paces the configmap writer; haScaleEvery the scaler.
	haWriteEvery = 100 * time.Millisecond
	// haWriteTimeout gives up on a write: one whose etcd proposal died
	// with the etcd leader would otherwise hang for etcd's request
	// timeout (7s) and hide how soon writes succeed again.
	haWriteTimeout = 2 * time.Second
	haScaleEvery   = 3 * time.Second
	// haConverge bounds a checkpoint: the Deployment at its count, every
	// pod bound and running.
	haConverge = 60 * time.Second
)

// haWorkload runs, through the load balancer, for the whole HA test: a
// writer creating configmaps with unique values and reading each back, a
// scaler moving a Deployment between 3 and 6 replicas, and a pod
// informer noting every binding. It records every acknowledged write.
type haWorkload struct {
	set    *client.Set
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// scaleMu is held by a checkpoint, which owns the replica count
	// meanwhile; the scaler skips its turn.
	scaleMu sync.Mutex

	// mu guards the fields below.
	mu sync.Mutex
	// acked maps each configmap whose create returned success to its
	// value; attempted has every create sent.
	acked, attempted map[string]string
	// ackTimes are the acknowledgement times, in order.
	ackTimes []time.Time
	// failedWrites counts creates without success; badReads the read-backs
	// that returned another value.
	failedWrites int
	badReads     []string
	// nodeOf is the first node each pod was seen bound to; moved lists
	// pods seen on another one later.
	nodeOf map[meta.UID]string
	moved  []string
	binds  int
}

// startWorkload creates the Deployment and starts the writer, the scaler
// and the pod informer; they stop when the test ends.
func startWorkload(t *testing.T, set *client.Set) *haWorkload {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &haWorkload{set: set, ctx: ctx, cancel: cancel, acked: map[string]string{}, attempted: map[string]string{}, nodeOf: map[meta.UID]string{}}
	t.Cleanup(w.stop)
	replicas := int32(3)
	grace := int64(0)
	l := map[string]string{"app": haDeployment}
	d := &appsv1.Deployment{
		ObjectMeta: meta.ObjectMeta{Name: haDeployment, Namespace: haNamespace},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &meta.LabelSelector{MatchLabels: l},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: l},
				Spec: corev1.PodSpec{TerminationGracePeriodSeconds: &grace,
					Containers: []corev1.Container{{Name: "web", Image: "registry.platform.io/pause:3.9"}}},
			},
		},
	}
	if _, err := set.Deployments.Namespace(haNamespace).Create(ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatalf("create the deployment: %v", err)
	}
	inf := informer.New[*corev1.Pod](meta.GroupResource{Resource: "pods"}, set.Pods.Namespace(haNamespace).ListWatch(), informer.Options{})
	if _, err := inf.AddEventHandler(informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd:    func(p *corev1.Pod, _ bool) { w.noteBinding(p) },
		OnUpdate: func(_, p *corev1.Pod) { w.noteBinding(p) },
	}); err != nil {
		t.Fatal(err)
	}
	w.wg.Add(3)
	go func() {
		defer w.wg.Done()
		inf.Run(ctx)
	}()
	go w.writeLoop()
	go w.scaleLoop()
	return w
}

func (w *haWorkload) stop() {
	w.cancel()
	w.wg.Wait()
}

// noteBinding records p's node the first time it is bound, and any later
// change of it: a pod bound twice.
func (w *haWorkload) noteBinding(p *corev1.Pod) {
	if p.Spec.NodeName == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	prev, ok := w.nodeOf[p.UID]
	switch {
	case !ok:
		w.nodeOf[p.UID] = p.Spec.NodeName
		w.binds++
	case prev != p.Spec.NodeName:
		w.moved = append(w.moved, fmt.Sprintf("%s: %s then %s", p.Name, prev, p.Spec.NodeName))
	}
}

// writeLoop creates a configmap with a unique value every haWriteEvery
// and reads it back.
func (w *haWorkload) writeLoop() {
	defer w.wg.Done()
	tick := time.NewTicker(haWriteEvery)
	defer tick.Stop()
	cms := w.set.ConfigMaps.Namespace(haNamespace)
	for i := 0; ; i++ {
		select {
		case <-w.ctx.Done():
			return
		case <-tick.C:
		}
		name, value := fmt.Sprintf("ha-w-%06d", i), randomValue(i)
		w.mu.Lock()
		w.attempted[name] = value
		w.mu.Unlock()
		cm := &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"ha-write": "true"}}, Data: map[string]string{"v": value}}
		ctx, cancel := context.WithTimeout(w.ctx, haWriteTimeout)
		_, err := cms.Create(ctx, cm, meta.WriteOptions{})
		cancel()
		if err != nil {
			w.mu.Lock()
			w.failedWrites++
			w.mu.Unlock()
			continue
		}
		w.mu.Lock()
		w.acked[name] = value
		w.ackTimes = append(w.ackTimes, time.Now())
		w.mu.Unlock()
		ctx, cancel = context.WithTimeout(w.ctx, 5*time.Second)
		got, err := cms.Get(ctx, name, meta.GetOptions{})
		cancel()
		if err == nil && got.Data["v"] != value {
			w.mu.Lock()
			w.badReads = append(w.badReads, fmt.Sprintf("%s: wrote %q, read %q", name, value, got.Data["v"]))
			w.mu.Unlock()
		}
	}
}

func randomValue(i int) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%d-%s", i, hex.EncodeToString(b))
}

// scaleLoop moves the Deployment between 3 and 6 replicas every
// haScaleEvery, except while a checkpoint holds the count.
func (w *haWorkload) scaleLoop() {
	defer w.wg.Done()
	tick := time.NewTicker(haScaleEvery)
	defer tick.Stop()
	n := int32(3)
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-tick.C:
		}
		if !w.scaleMu.TryLock() {
			continue
		}
		n = 9 - n
		_ = w.scale(n)
		w.scaleMu.Unlock()
	}
}

func (w *haWorkload) scale(n int32) error {
	ctx, cancel := context.WithTimeout(w.ctx, 5*time.Second)
	defer cancel()
	_, err := w.set.Deployments.Namespace(haNamespace).Patch(ctx, haDeployment, rest.MergePatchType,
		fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, n), meta.WriteOptions{})
	return err
}

// checkpoint sets the Deployment to n replicas and waits until the
// controller manager has made it so and the scheduler has bound every
// pod, which the simulated nodes then run; it returns when that was.
func (w *haWorkload) checkpoint(t *testing.T, n int32) time.Time {
	t.Helper()
	w.scaleMu.Lock()
	defer w.scaleMu.Unlock()
	Eventually(t, haConverge, fmt.Sprintf("the deployment scaled to %d", n), func() string {
		if err := w.scale(n); err != nil {
			return err.Error()
		}
		return ""
	})
	Eventually(t, haConverge, fmt.Sprintf("the deployment at %d replicas, every pod bound and running", n), func() string {
		return w.converged(n)
	})
	return time.Now()
}

// converged returns "" when the Deployment and its pods are at n.
func (w *haWorkload) converged(n int32) string {
	ctx, cancel := context.WithTimeout(w.ctx, 5*time.Second)
	defer cancel()
	d, err := w.set.Deployments.Namespace(haNamespace).Get(ctx, haDeployment, meta.GetOptions{})
	if err != nil {
		return err.Error()
	}
	st := d.Status
	if st.ObservedGeneration < d.Generation || st.Replicas != n || st.UpdatedReplicas != n || st.ReadyReplicas != n || st.AvailableReplicas != n {
		return fmt.Sprintf("status %+v at generation %d, want %d replicas", st, d.Generation, n)
	}
	pods, err := w.set.Pods.Namespace(haNamespace).List(ctx, meta.ListOptions{LabelSelector: "app=" + haDeployment})
	if err != nil {
		return err.Error()
	}
	var running int32
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		if p.Spec.NodeName == "" || p.Status.Phase != corev1.PodRunning {
			return fmt.Sprintf("pod %s on %q is %s", p.Name, p.Spec.NodeName, p.Status.Phase)
		}
		running++
	}
	return want(fmt.Sprint(running), fmt.Sprint(n))
}

// longestWriteGap is the longest time without an acknowledged write
// among the gaps that end after from: the write outage an event caused.
func (w *haWorkload) longestWriteGap(from time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var longest time.Duration
	for i := 1; i < len(w.ackTimes); i++ {
		if w.ackTimes[i].After(from) {
			longest = max(longest, w.ackTimes[i].Sub(w.ackTimes[i-1]))
		}
	}
	return longest
}

// verifyWrites fails t for every acknowledged configmap that is missing
// or holds another value, and for a configmap whose value was never
// sent; it returns the counts of acknowledged writes and of writes that
// failed.
func (w *haWorkload) verifyWrites(t *testing.T) (acked, failed int) {
	t.Helper()
	var list *client.List[corev1.ConfigMap]
	Eventually(t, 30*time.Second, "list the configmaps written", func() string {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var err error
		list, err = w.set.ConfigMaps.Namespace(haNamespace).List(ctx, meta.ListOptions{LabelSelector: "ha-write=true"})
		if err != nil {
			return err.Error()
		}
		return ""
	})
	stored := map[string]string{}
	for _, cm := range list.Items {
		stored[cm.Name] = cm.Data["v"]
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var lost []string
	for name, v := range w.acked {
		if got, ok := stored[name]; !ok || got != v {
			lost = append(lost, fmt.Sprintf("%s (wrote %q, stored %q)", name, v, got))
		}
	}
	slices.Sort(lost)
	if len(lost) > 0 {
		t.Errorf("%d acknowledged writes lost: %s", len(lost), strings.Join(lost, ", "))
	}
	for name, v := range stored {
		if w.attempted[name] != v {
			t.Errorf("configmap %s holds %q, which was never written", name, v)
		}
	}
	if len(w.badReads) > 0 {
		t.Errorf("reads after acknowledged writes returned other values: %s", strings.Join(w.badReads, "; "))
	}
	return len(w.acked), w.failedWrites
}

// verifyNoDuplicates fails t when a pod was bound twice, when the
// Deployment has more than the one ReplicaSet of its only template, or
// when a pod has more than one Scheduled event; it returns the number of
// bindings seen.
func (w *haWorkload) verifyNoDuplicates(t *testing.T) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rss, err := w.set.ReplicaSets.Namespace(haNamespace).List(ctx, meta.ListOptions{LabelSelector: "app=" + haDeployment})
	if err != nil {
		t.Fatalf("list replicasets: %v", err)
	}
	byHash := map[string][]string{}
	for _, rs := range rss.Items {
		h := rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey]
		byHash[h] = append(byHash[h], rs.Name)
	}
	if len(rss.Items) != 1 {
		t.Errorf("replicasets by template hash %v, want one replicaset of the one template", byHash)
	}
	events, err := w.set.Events.Namespace(haNamespace).List(ctx, meta.ListOptions{})
	if err != nil {
		t.Fatalf("list events: %v", err)
	}
	scheduled := map[string]int{}
	for _, ev := range events.Items {
		if ev.Reason == "Scheduled" {
			scheduled[string(ev.InvolvedObject.UID)+" "+ev.InvolvedObject.Name] += max(int(ev.Count), 1)
		}
	}
	for pod, n := range scheduled {
		if n > 1 {
			t.Errorf("pod %s has %d Scheduled events", pod, n)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.moved) > 0 {
		t.Errorf("pods bound twice: %s", strings.Join(w.moved, "; "))
	}
	return w.binds
}

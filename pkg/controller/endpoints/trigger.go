package endpoints

import (
	"sync"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// AnnotationLastChangeTriggerTime records when the change to pods or the
// service that caused the Endpoints' last update happened.
const AnnotationLastChangeTriggerTime = "endpoints.platform.io/last-change-trigger-time"

// triggerTracker remembers, per service, the trigger times it has already
// accounted for, so that a sync can name the earliest change not yet
// reflected in the Endpoints, as upstream's TriggerTimeTracker does: a
// pod's trigger is its Ready condition's last transition, a service's its
// creation. mu guards state.
type triggerTracker struct {
	mu    sync.Mutex
	state map[string]*serviceTriggers
}

type serviceTriggers struct {
	pods    map[string]time.Time
	service time.Time
}

func newTriggerTracker() *triggerTracker {
	return &triggerTracker{state: map[string]*serviceTriggers{}}
}

// compute returns the earliest trigger time among the pods and the
// service that changed since the last recorded state for key (zero when
// none did), and a function that records the current ones. The caller
// records them only once the Endpoints reflect them (written, or already
// equal): a failed write keeps the trigger for the retry.
func (t *triggerTracker) compute(key string, svc *corev1.Service, pods []*corev1.Pod) (time.Time, func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.state[key]
	if st == nil {
		st = &serviceTriggers{pods: map[string]time.Time{}}
	}
	var earliest time.Time
	consider := func(at time.Time) {
		if !at.IsZero() && (earliest.IsZero() || at.Before(earliest)) {
			earliest = at
		}
	}
	created := svc.CreationTimestamp.Time
	if !created.Equal(st.service) {
		consider(created)
	}
	seen := make(map[string]time.Time, len(pods))
	for _, p := range pods {
		at := podTrigger(p)
		seen[p.Name] = at
		if prev, ok := st.pods[p.Name]; !ok || !prev.Equal(at) {
			consider(at)
		}
	}
	record := func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.state[key] = &serviceTriggers{service: created, pods: seen}
	}
	return earliest, record
}

// forget drops a deleted service's state.
func (t *triggerTracker) forget(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.state, key)
}

func podTrigger(p *corev1.Pod) time.Time {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

package queuesort

import (
	"encoding/json"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// Name is the plugin's name in profiles.
const Name = "PrioritySort"

// PrioritySort orders pods by priority, then queue timestamp.
type PrioritySort struct{}

var _ framework.QueueSortPlugin = PrioritySort{}

// New builds the plugin; it takes no arguments.
func New(args json.RawMessage, _ framework.Handle) (framework.Plugin, error) {
	if err := framework.DecodeArgs(Name, args, &struct{}{}); err != nil {
		return nil, err
	}
	return PrioritySort{}, nil
}

// Name returns the plugin's name.
func (PrioritySort) Name() string { return Name }

// Less reports whether a comes before b.
func (PrioritySort) Less(a, b *framework.QueuedPodInfo) bool {
	pa, pb := priority(a.Pod), priority(b.Pod)
	return pa > pb || (pa == pb && a.Timestamp.Before(b.Timestamp))
}

func priority(p *corev1.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

package testing

import (
	"fmt"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// PodWrapper builds a pod fluently: MakePod().Name("p").Req(...).Obj().
// Every method changes the wrapped pod and returns the wrapper.
type PodWrapper struct{ corev1.Pod }

// MakePod returns a wrapper of an empty pod in namespace "default" with the
// default scheduler name.
func MakePod() *PodWrapper {
	p := &PodWrapper{}
	p.Pod.Namespace = "default"
	p.Spec.SchedulerName = corev1.DefaultSchedulerName
	return p
}

// Obj returns the built pod.
func (p *PodWrapper) Obj() *corev1.Pod { return &p.Pod }

// Name sets the name, and the UID to the name when no UID is set, so that
// pods built in one test are told apart.
func (p *PodWrapper) Name(s string) *PodWrapper {
	p.SetName(s)
	if p.Pod.UID == "" {
		p.Pod.UID = meta.UID(s)
	}
	return p
}

// SetName sets only the name.
func (p *PodWrapper) SetName(s string) *PodWrapper {
	p.Pod.Name = s
	return p
}

// Namespace sets the namespace.
func (p *PodWrapper) Namespace(s string) *PodWrapper {
	p.Pod.Namespace = s
	return p
}

// UID sets the UID.
func (p *PodWrapper) UID(s string) *PodWrapper {
	p.Pod.UID = meta.UID(s)
	return p
}

// Label adds a label.
func (p *PodWrapper) Label(k, v string) *PodWrapper {
	if p.Pod.Labels == nil {
		p.Pod.Labels = map[string]string{}
	}
	p.Pod.Labels[k] = v
	return p
}

// Labels adds labels.
func (p *PodWrapper) Labels(m map[string]string) *PodWrapper {
	for k, v := range m {
		p.Label(k, v)
	}
	return p
}

// Annotation adds an annotation.
func (p *PodWrapper) Annotation(k, v string) *PodWrapper {
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[k] = v
	return p
}

// OwnerReference makes the pod controlled by the named object of kind
// (for example "ReplicaSet") in apiVersion ("apps/v1"); its UID is the name.
func (p *PodWrapper) OwnerReference(apiVersion, kind, name string) *PodWrapper {
	yes := true
	p.OwnerReferences = append(p.OwnerReferences, meta.OwnerReference{
		APIVersion: apiVersion, Kind: kind, Name: name, UID: meta.UID(name), Controller: &yes,
	})
	return p
}

// CreationTimestamp sets the creation time.
func (p *PodWrapper) CreationTimestamp(t time.Time) *PodWrapper {
	p.Pod.CreationTimestamp = meta.NewTime(t)
	return p
}

// Terminating sets a deletion timestamp.
func (p *PodWrapper) Terminating(t time.Time) *PodWrapper {
	mt := meta.NewTime(t)
	p.DeletionTimestamp = &mt
	return p
}

// SchedulerName sets spec.schedulerName.
func (p *PodWrapper) SchedulerName(s string) *PodWrapper {
	p.Spec.SchedulerName = s
	return p
}

// Priority sets spec.priority.
func (p *PodWrapper) Priority(v int32) *PodWrapper {
	p.Spec.Priority = &v
	return p
}

// PreemptionPolicy sets spec.preemptionPolicy.
func (p *PodWrapper) PreemptionPolicy(v corev1.PreemptionPolicy) *PodWrapper {
	p.Spec.PreemptionPolicy = &v
	return p
}

// Node sets spec.nodeName (the pod is bound there).
func (p *PodWrapper) Node(s string) *PodWrapper {
	p.Spec.NodeName = s
	return p
}

// NominatedNodeName sets status.nominatedNodeName.
func (p *PodWrapper) NominatedNodeName(s string) *PodWrapper {
	p.Status.NominatedNodeName = s
	return p
}

// Phase sets status.phase.
func (p *PodWrapper) Phase(v corev1.PodPhase) *PodWrapper {
	p.Status.Phase = v
	return p
}

// StartTime sets status.startTime.
func (p *PodWrapper) StartTime(t time.Time) *PodWrapper {
	mt := meta.NewTime(t)
	p.Status.StartTime = &mt
	return p
}

// ActiveDeadlineSeconds sets spec.activeDeadlineSeconds.
func (p *PodWrapper) ActiveDeadlineSeconds(v int64) *PodWrapper {
	p.Spec.ActiveDeadlineSeconds = &v
	return p
}

// Container adds a container running image.
func (p *PodWrapper) Container(image string) *PodWrapper {
	p.Spec.Containers = append(p.Spec.Containers, corev1.Container{
		Name: fmt.Sprintf("con%d", len(p.Spec.Containers)), Image: image,
	})
	return p
}

// InitContainer adds an init container running image.
func (p *PodWrapper) InitContainer(image string) *PodWrapper {
	p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{
		Name: fmt.Sprintf("init%d", len(p.Spec.InitContainers)), Image: image,
	})
	return p
}

// Req adds a container that requests the amounts ("cpu": "500m").
func (p *PodWrapper) Req(m map[corev1.ResourceName]string) *PodWrapper {
	p.Container("")
	p.Spec.Containers[len(p.Spec.Containers)-1].Resources.Requests = ResourceList(m)
	return p
}

// Lim sets the limits of the last container, adding one if there is none.
func (p *PodWrapper) Lim(m map[corev1.ResourceName]string) *PodWrapper {
	if len(p.Spec.Containers) == 0 {
		p.Container("")
	}
	p.Spec.Containers[len(p.Spec.Containers)-1].Resources.Limits = ResourceList(m)
	return p
}

// InitReq adds an init container that requests the amounts.
func (p *PodWrapper) InitReq(m map[corev1.ResourceName]string) *PodWrapper {
	p.InitContainer("")
	p.Spec.InitContainers[len(p.Spec.InitContainers)-1].Resources.Requests = ResourceList(m)
	return p
}

// Overhead sets spec.overhead.
func (p *PodWrapper) Overhead(m map[corev1.ResourceName]string) *PodWrapper {
	p.Spec.Overhead = ResourceList(m)
	return p
}

// HostPort adds a container with a TCP host port on all addresses.
func (p *PodWrapper) HostPort(port int32) *PodWrapper {
	return p.ContainerPort([]corev1.ContainerPort{{HostPort: port, ContainerPort: port, Protocol: corev1.ProtocolTCP}})
}

// ContainerPort adds a container with ports.
func (p *PodWrapper) ContainerPort(ports []corev1.ContainerPort) *PodWrapper {
	p.Container("")
	p.Spec.Containers[len(p.Spec.Containers)-1].Ports = ports
	return p
}

// Toleration adds a toleration of every taint with key (operator Exists).
func (p *PodWrapper) Toleration(key string) *PodWrapper {
	p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists})
	return p
}

// Tolerations adds tolerations.
func (p *PodWrapper) Tolerations(ts []corev1.Toleration) *PodWrapper {
	p.Spec.Tolerations = append(p.Spec.Tolerations, ts...)
	return p
}

// NodeSelector sets spec.nodeSelector.
func (p *PodWrapper) NodeSelector(m map[string]string) *PodWrapper {
	p.Spec.NodeSelector = m
	return p
}

// Affinity sets spec.affinity.
func (p *PodWrapper) Affinity(a *corev1.Affinity) *PodWrapper {
	p.Spec.Affinity = a
	return p
}

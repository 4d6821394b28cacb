package node

import (
	"sync"

	corev1 "platform.io/client/api/core/v1"
)

// PodHandler is told of pods as the API server's list and watch see them.
type PodHandler interface {
	// PodsReplaced gives every pod that exists, after a list: pods the
	// handler knew and the list lacks are gone.
	PodsReplaced(pods []*corev1.Pod)
	// PodUpserted is called for a pod added or changed.
	PodUpserted(pod *corev1.Pod)
	// PodDeleted is called when a pod is gone.
	PodDeleted(namespace, name string)
}

// PodSource is the server's list and watch of pods. AddPodHandler
// registers h; the source then gives it every pod that exists (one
// PodsReplaced, or one PodUpserted each), then every change, and again a
// PodsReplaced after any relist. Calls may come from several goroutines
// (the graph locks). A source over the pods store is list, then watch from
// the list's resourceVersion, then list again when the watch ends.
type PodSource interface {
	AddPodHandler(h PodHandler)
}

// Kind is a kind of object a node may reach through its pods.
type Kind string

// The kinds of the graph.
const (
	Pod                   Kind = "pods"
	Secret                Kind = "secrets"
	ConfigMap             Kind = "configmaps"
	PersistentVolumeClaim Kind = "persistentvolumeclaims"
	ServiceAccount        Kind = "serviceaccounts"
)

type ref struct {
	kind      Kind
	namespace string
	name      string
}

type podEntry struct {
	node string
	refs []ref
}

// Graph records, per node, the objects its bound pods reach: node -> pods
// -> secrets, config maps, claims and service accounts. An object reached
// by several pods of a node stays reachable until the last one goes.
type Graph struct {
	mu sync.RWMutex // mu guards pods and reach
	// pods holds each bound pod's node and references, by namespace/name.
	pods map[[2]string]podEntry
	// reach counts, per node, the pods through which each object is reached.
	reach map[string]map[ref]int
}

var _ PodHandler = (*Graph)(nil)

// NewGraph returns an empty graph.
func NewGraph() *Graph {
	return &Graph{pods: map[[2]string]podEntry{}, reach: map[string]map[ref]int{}}
}

// PodUpserted implements PodHandler: the pod's edges replace its old ones.
// A pod not bound to a node has none.
func (g *Graph) PodUpserted(p *corev1.Pod) {
	key := [2]string{p.Namespace, p.Name}
	var e podEntry
	if p.Spec.NodeName != "" {
		e = podEntry{node: p.Spec.NodeName, refs: references(p)}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.removeLocked(key)
	if e.node == "" {
		return
	}
	g.pods[key] = e
	m := g.reach[e.node]
	if m == nil {
		m = map[ref]int{}
		g.reach[e.node] = m
	}
	for _, r := range e.refs {
		m[r]++
	}
}

// PodsReplaced implements PodHandler: the graph becomes that of pods.
func (g *Graph) PodsReplaced(pods []*corev1.Pod) {
	fresh := NewGraph()
	for _, p := range pods {
		fresh.PodUpserted(p)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pods, g.reach = fresh.pods, fresh.reach
}

// PodDeleted implements PodHandler.
func (g *Graph) PodDeleted(namespace, name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.removeLocked([2]string{namespace, name})
}

func (g *Graph) removeLocked(key [2]string) {
	old, ok := g.pods[key]
	if !ok {
		return
	}
	delete(g.pods, key)
	m := g.reach[old.node]
	for _, r := range old.refs {
		if m[r]--; m[r] <= 0 {
			delete(m, r)
		}
	}
	if len(m) == 0 {
		delete(g.reach, old.node)
	}
}

// Reaches reports whether node reaches the object through a bound pod
// (for kind Pod: whether the pod is bound to node).
func (g *Graph) Reaches(node string, kind Kind, namespace, name string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.reach[node][ref{kind, namespace, name}] > 0
}

// PodReferences reports whether the pod names an object of kind (Secret,
// ConfigMap, PersistentVolumeClaim or ServiceAccount) anywhere: volumes,
// image pull secrets, environment of any container.
func PodReferences(p *corev1.Pod, kind Kind) bool {
	for _, r := range references(p) {
		if r.kind == kind {
			return true
		}
	}
	return false
}

// references lists the pod itself and every object it names, once each.
func references(p *corev1.Pod) []ref {
	seen := map[ref]bool{}
	var out []ref
	add := func(kind Kind, name string) {
		r := ref{kind, p.Namespace, name}
		if name != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	add(Pod, p.Name)
	sa := p.Spec.ServiceAccountName
	if sa == "" {
		sa = p.Spec.DeprecatedServiceAccount
	}
	add(ServiceAccount, sa)
	for _, s := range p.Spec.ImagePullSecrets {
		add(Secret, s.Name)
	}
	for _, v := range p.Spec.Volumes {
		volumeReferences(v.VolumeSource, add)
	}
	for i := range p.Spec.InitContainers {
		containerReferences(&p.Spec.InitContainers[i], add)
	}
	for i := range p.Spec.Containers {
		containerReferences(&p.Spec.Containers[i], add)
	}
	for i := range p.Spec.EphemeralContainers {
		c := corev1.Container(p.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		containerReferences(&c, add)
	}
	return out
}

func volumeReferences(v corev1.VolumeSource, add func(Kind, string)) {
	switch {
	case v.Secret != nil:
		add(Secret, v.Secret.SecretName)
	case v.ConfigMap != nil:
		add(ConfigMap, v.ConfigMap.Name)
	case v.PersistentVolumeClaim != nil:
		add(PersistentVolumeClaim, v.PersistentVolumeClaim.ClaimName)
	case v.CSI != nil && v.CSI.NodePublishSecretRef != nil:
		add(Secret, v.CSI.NodePublishSecretRef.Name)
	case v.Projected != nil:
		for _, s := range v.Projected.Sources {
			if s.Secret != nil {
				add(Secret, s.Secret.Name)
			}
			if s.ConfigMap != nil {
				add(ConfigMap, s.ConfigMap.Name)
			}
		}
	}
}

func containerReferences(c *corev1.Container, add func(Kind, string)) {
	for _, e := range c.EnvFrom {
		if e.ConfigMapRef != nil {
			add(ConfigMap, e.ConfigMapRef.Name)
		}
		if e.SecretRef != nil {
			add(Secret, e.SecretRef.Name)
		}
	}
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			continue
		}
		if e.ValueFrom.ConfigMapKeyRef != nil {
			add(ConfigMap, e.ValueFrom.ConfigMapKeyRef.Name)
		}
		if e.ValueFrom.SecretKeyRef != nil {
			add(Secret, e.ValueFrom.SecretKeyRef.Name)
		}
	}
}

package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
)

// Errors of pod bookkeeping.
var (
	ErrPodExists   = errors.New("cache: pod already in the cache")
	ErrPodNotFound = errors.New("cache: pod not in the cache")
	ErrNoNode      = errors.New("cache: pod has no node")
)

// DefaultAssumedTTL is how long an assumed pod whose binding finished may
// wait for the informer to confirm it before it is dropped.
const DefaultAssumedTTL = 30 * time.Second

// Clock is the cache's time source.
type Clock interface{ Now() time.Time }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// nodeItem is one node in the list ordered by last change, newest first.
type nodeItem struct {
	info       *framework.NodeInfo
	prev, next *nodeItem
}

type podState struct {
	pod *corev1.Pod
	// deadline is set when the binding of an assumed pod finished.
	deadline *time.Time
}

type imageState struct {
	size  int64
	nodes map[string]bool
}

// Cache holds nodes and pods. It is safe for concurrent use.
type Cache struct {
	lg    *zap.Logger
	clock Clock
	ttl   time.Duration

	mu sync.RWMutex
	// mu guards everything below.
	nodes      map[string]*nodeItem
	head       *nodeItem
	numNodes   int // items whose node is known
	pods       map[meta.UID]*podState
	assumed    map[meta.UID]bool
	images     map[string]*imageState
	imageGen   int64
	generation int64
}

// New returns an empty cache; ttl 0 means DefaultAssumedTTL and a nil
// clock the real one.
func New(lg *zap.Logger, ttl time.Duration, clock Clock) *Cache {
	if ttl == 0 {
		ttl = DefaultAssumedTTL
	}
	if clock == nil {
		clock = realClock{}
	}
	if lg == nil {
		lg = zap.NewNop()
	}
	return &Cache{lg: lg, clock: clock, ttl: ttl, nodes: map[string]*nodeItem{},
		pods: map[meta.UID]*podState{}, assumed: map[meta.UID]bool{}, images: map[string]*imageState{}}
}

// touchLocked gives the node a new generation and moves it to the head.
func (c *Cache) touchLocked(name string) *nodeItem {
	it, ok := c.nodes[name]
	if !ok {
		it = &nodeItem{info: framework.NewNodeInfo()}
		c.nodes[name] = it
	} else {
		c.unlinkLocked(it)
	}
	it.next = c.head
	if c.head != nil {
		c.head.prev = it
	}
	c.head = it
	c.generation++
	it.info.Generation = c.generation
	return it
}

func (c *Cache) unlinkLocked(it *nodeItem) {
	if it.prev != nil {
		it.prev.next = it.next
	} else if c.head == it {
		c.head = it.next
	}
	if it.next != nil {
		it.next.prev = it.prev
	}
	it.prev, it.next = nil, nil
}

// addPodLocked puts pod on its node.
func (c *Cache) addPodLocked(pod *corev1.Pod) {
	it := c.touchLocked(pod.Spec.NodeName)
	it.info.AddPod(pod)
	it.info.Generation = c.generation
}

// removePodLocked takes pod off its node, and drops a node that is gone
// and has no pods left.
func (c *Cache) removePodLocked(pod *corev1.Pod) error {
	it, ok := c.nodes[pod.Spec.NodeName]
	if !ok {
		return fmt.Errorf("%w: node %q of pod %s/%s", ErrPodNotFound, pod.Spec.NodeName, pod.Namespace, pod.Name)
	}
	if err := it.info.RemovePod(pod); err != nil {
		return err
	}
	if it.info.Node() == nil && len(it.info.Pods) == 0 {
		c.unlinkLocked(it)
		delete(c.nodes, pod.Spec.NodeName)
		return nil
	}
	c.touchLocked(pod.Spec.NodeName)
	return nil
}

// AssumePod puts pod (whose spec.nodeName is the chosen node) on its node
// before the binding is observed.
func (c *Cache) AssumePod(pod *corev1.Pod) error {
	if pod.Spec.NodeName == "" {
		return fmt.Errorf("%w: %s/%s", ErrNoNode, pod.Namespace, pod.Name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pods[pod.UID]; ok {
		return fmt.Errorf("%w: %s/%s", ErrPodExists, pod.Namespace, pod.Name)
	}
	c.addPodLocked(pod)
	c.pods[pod.UID] = &podState{pod: pod}
	c.assumed[pod.UID] = true
	return nil
}

// FinishBinding starts the expiry of an assumed pod whose binding was sent.
func (c *Cache) FinishBinding(pod *corev1.Pod) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ps, ok := c.pods[pod.UID]; ok && c.assumed[pod.UID] {
		d := c.clock.Now().Add(c.ttl)
		ps.deadline = &d
	}
}

// ForgetPod drops an assumed pod whose binding failed.
func (c *Cache) ForgetPod(pod *corev1.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps, ok := c.pods[pod.UID]
	if !ok || !c.assumed[pod.UID] {
		return fmt.Errorf("%w: assumed pod %s/%s", ErrPodNotFound, pod.Namespace, pod.Name)
	}
	delete(c.pods, pod.UID)
	delete(c.assumed, pod.UID)
	return c.removePodLocked(ps.pod)
}

// IsAssumedPod reports whether pod is assumed and not yet confirmed.
func (c *Cache) IsAssumedPod(pod *corev1.Pod) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.assumed[pod.UID]
}

// AddPod records a pod the informer saw bound; it confirms an assumed pod.
func (c *Cache) AddPod(pod *corev1.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps, ok := c.pods[pod.UID]
	if ok {
		if err := c.removePodLocked(ps.pod); err != nil {
			return err
		}
		delete(c.assumed, pod.UID)
	}
	c.addPodLocked(pod)
	c.pods[pod.UID] = &podState{pod: pod}
	return nil
}

// UpdatePod replaces a bound pod.
func (c *Cache) UpdatePod(_, newPod *corev1.Pod) error { return c.AddPod(newPod) }

// RemovePod drops a bound (or assumed) pod.
func (c *Cache) RemovePod(pod *corev1.Pod) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps, ok := c.pods[pod.UID]
	if !ok {
		return fmt.Errorf("%w: %s/%s", ErrPodNotFound, pod.Namespace, pod.Name)
	}
	delete(c.pods, pod.UID)
	delete(c.assumed, pod.UID)
	return c.removePodLocked(ps.pod)
}

// AddNode records a node, or replaces it.
func (c *Cache) AddNode(node *corev1.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.nodes[node.Name]
	if ok && it.info.Node() != nil {
		c.removeImagesLocked(it.info.Node())
	} else {
		c.numNodes++
	}
	it = c.touchLocked(node.Name)
	it.info.SetNode(node)
	it.info.Generation = c.generation
	c.addImagesLocked(node)
}

// UpdateNode replaces a node.
func (c *Cache) UpdateNode(_, newNode *corev1.Node) { c.AddNode(newNode) }

// RemoveNode drops a node; its pods stay until they are deleted.
func (c *Cache) RemoveNode(node *corev1.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.nodes[node.Name]
	if !ok || it.info.Node() == nil {
		return
	}
	c.removeImagesLocked(it.info.Node())
	c.numNodes--
	if len(it.info.Pods) == 0 {
		c.unlinkLocked(it)
		delete(c.nodes, node.Name)
		return
	}
	fresh := framework.NewNodeInfo()
	for _, pi := range it.info.Pods {
		fresh.AddPodInfo(pi)
	}
	it.info = fresh
	c.touchLocked(node.Name)
}

func (c *Cache) addImagesLocked(node *corev1.Node) {
	for _, img := range node.Status.Images {
		for _, name := range img.Names {
			st, ok := c.images[name]
			if !ok {
				st = &imageState{size: img.SizeBytes, nodes: map[string]bool{}}
				c.images[name] = st
			}
			st.nodes[node.Name] = true
		}
	}
	if len(node.Status.Images) > 0 {
		c.imageGen++
	}
}

func (c *Cache) removeImagesLocked(node *corev1.Node) {
	for _, img := range node.Status.Images {
		for _, name := range img.Names {
			if st, ok := c.images[name]; ok {
				delete(st.nodes, node.Name)
				if len(st.nodes) == 0 {
					delete(c.images, name)
				}
			}
		}
	}
	if len(node.Status.Images) > 0 {
		c.imageGen++
	}
}

// CleanupAssumedPods drops assumed pods whose binding finished more than
// the TTL ago without the informer confirming them.
func (c *Cache) CleanupAssumedPods() {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clock.Now()
	for uid := range c.assumed {
		ps := c.pods[uid]
		if ps.deadline == nil || now.Before(*ps.deadline) {
			continue
		}
		c.lg.Warn("assumed pod expired", zap.String("pod", ps.pod.Namespace+"/"+ps.pod.Name), zap.String("node", ps.pod.Spec.NodeName))
		delete(c.pods, uid)
		delete(c.assumed, uid)
		if err := c.removePodLocked(ps.pod); err != nil {
			c.lg.Error("expire assumed pod", zap.Error(err))
		}
	}
}

// Run expires assumed pods every second until ctx ends.
func (c *Cache) Run(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.CleanupAssumedPods()
		}
	}
}

// Counts returns the number of known nodes and of pods (assumed included).
func (c *Cache) Counts() (nodes, pods int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.numNodes, len(c.pods)
}

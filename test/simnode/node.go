package simnode

import (
	"fmt"
	"sync"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/client"
)

// maxNodes bounds the node count so that every node gets its own /24 of
// pod IPs in 10.0.0.0/8 and host IP in 172.16.0.0/12.
const maxNodes = 65536

// Labels and reasons the agent writes.
const (
	LabelZone     = "topology.platform.io/zone"
	LabelHostname = "platform.io/hostname"
	LabelOS       = "platform.io/os"
	LabelArch     = "platform.io/arch"

	reasonReady          = "KubeletReady"
	reasonMemoryOK       = "KubeletHasSufficientMemory"
	reasonDiskOK         = "KubeletHasNoDiskPressure"
	reasonPIDOK          = "KubeletHasSufficientPID"
	messageReady         = "node agent is posting ready status"
	defaultAgentVersion  = "v1.0.0-simnode"
	containerRuntimeName = "docker"
)

// simNode is one simulated node: fixed identity, and the heartbeat state
// the lease loop keeps. mu guards stopped, lease, lastReport, usedIPs and
// meter.
type simNode struct {
	name   string
	index  int
	zone   string
	hostIP string
	// clients act as this node.
	clients *client.Set
	// endpointPort is the port of its resource metrics endpoint, 0 for
	// none; set before the node registers.
	endpointPort int32

	mu         sync.Mutex
	stopped    bool
	lease      *leaseState
	lastReport time.Time
	usedIPs    map[string]string // pod IP -> pod key
	meter      *meter
}

func newSimNode(prefix string, i int, zones []string) *simNode {
	return &simNode{
		name:    fmt.Sprintf("%s%d", prefix, i),
		index:   i,
		zone:    zones[i%len(zones)],
		hostIP:  fmt.Sprintf("172.%d.%d.%d", 16+i/65536, (i/256)%256, i%256+1),
		usedIPs: map[string]string{},
	}
}

// podCIDR is the node's /24 of pod IPs.
func (n *simNode) podCIDR() string {
	return fmt.Sprintf("10.%d.%d.0/24", n.index/256, n.index%256)
}

// allocateIP returns the pod IP of the pod key: the one it has, else the
// lowest free address of the node's /24.
func (n *simNode) allocateIP(key, have string) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if have != "" {
		n.usedIPs[have] = key
		return have, nil
	}
	for host := 1; host < 255; host++ {
		ip := fmt.Sprintf("10.%d.%d.%d", n.index/256, n.index%256, host)
		if _, used := n.usedIPs[ip]; !used {
			n.usedIPs[ip] = key
			return ip, nil
		}
	}
	return "", fmt.Errorf("simnode: node %s has no free pod IP", n.name)
}

// releaseIP frees ip if the pod key holds it.
func (n *simNode) releaseIP(key, ip string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.usedIPs[ip] == key {
		delete(n.usedIPs, ip)
	}
}

// object returns the node as registered: labels, capacity, addresses,
// images, system info, and its conditions as of now.
func (n *simNode) object(c *Config, now time.Time) *corev1.Node {
	node := &corev1.Node{
		ObjectMeta: meta.ObjectMeta{Name: n.name, Labels: map[string]string{
			LabelZone: n.zone, LabelHostname: n.name, LabelOS: "linux", LabelArch: "amd64",
		}},
		Spec: corev1.NodeSpec{PodCIDR: n.podCIDR(), PodCIDRs: []string{n.podCIDR()}, ProviderID: "simnode://" + n.name},
	}
	if c.ExternalCloud {
		delete(node.Labels, LabelZone)
		node.Spec = corev1.NodeSpec{Taints: []corev1.Taint{{Key: corev1.TaintNodeUninitialized, Value: "true", Effect: corev1.TaintEffectNoSchedule}}}
	}
	n.setStatus(&node.Status, c, now)
	return node
}

// setStatus fills st with what the node reports: resources, addresses,
// images, info, and healthy conditions with a heartbeat at now. A condition
// keeps its lastTransitionTime when its status does not change.
func (n *simNode) setStatus(st *corev1.NodeStatus, c *Config, now time.Time) {
	res := corev1.ResourceList{
		corev1.ResourceCPU:    c.CPU,
		corev1.ResourceMemory: c.Memory,
		corev1.ResourcePods:   *resource.NewQuantity(int64(c.Pods), resource.DecimalSI),
	}
	st.Capacity, st.Allocatable = res, res.DeepCopy()
	st.Phase = corev1.NodeRunning
	st.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: n.hostIP}, {Type: corev1.NodeHostName, Address: n.name}}
	st.DaemonEndpoints = corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}}
	if n.endpointPort != 0 {
		// The node is reachable where it serves its resource metrics.
		st.Addresses[0].Address = c.ResourceMetricsAddress
		st.DaemonEndpoints.KubeletEndpoint.Port = n.endpointPort
	}
	st.NodeInfo = corev1.NodeSystemInfo{
		MachineID: n.name, SystemUUID: n.name, BootID: n.name, KernelVersion: "6.1.0", OSImage: "simulated",
		ContainerRuntimeVersion: containerRuntimeName + "://24.0.0", KubeletVersion: defaultAgentVersion,
		OperatingSystem: "linux", Architecture: "amd64",
	}
	st.Images = make([]corev1.ContainerImage, 0, len(c.Images))
	for _, img := range c.Images {
		st.Images = append(st.Images, corev1.ContainerImage{Names: []string{img}, SizeBytes: 10 << 20})
	}
	old := st.Conditions
	st.Conditions = nil
	hb := meta.NewTime(now.UTC().Truncate(time.Second))
	for _, want := range []corev1.NodeCondition{
		{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse, Reason: reasonMemoryOK, Message: "node has sufficient memory available"},
		{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse, Reason: reasonDiskOK, Message: "node has no disk pressure"},
		{Type: corev1.NodePIDPressure, Status: corev1.ConditionFalse, Reason: reasonPIDOK, Message: "node has sufficient PID available"},
		{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: reasonReady, Message: messageReady},
	} {
		want.LastHeartbeatTime, want.LastTransitionTime = hb, hb
		for _, o := range old {
			if o.Type == want.Type && o.Status == want.Status {
				want.LastTransitionTime = o.LastTransitionTime
			}
		}
		st.Conditions = append(st.Conditions, want)
	}
}

// healthy reports whether node shows the conditions the agent reports, so
// that a change by someone else (the node lifecycle loop marking it
// Unknown) makes the agent report again.
func healthy(node *corev1.Node) bool {
	want := map[corev1.NodeConditionType]corev1.ConditionStatus{
		corev1.NodeReady: corev1.ConditionTrue, corev1.NodeMemoryPressure: corev1.ConditionFalse,
		corev1.NodeDiskPressure: corev1.ConditionFalse, corev1.NodePIDPressure: corev1.ConditionFalse,
	}
	seen := 0
	for _, c := range node.Status.Conditions {
		if s, ok := want[c.Type]; ok {
			if c.Status != s {
				return false
			}
			seen++
		}
	}
	return seen == len(want)
}

func (n *simNode) isStopped() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.stopped
}

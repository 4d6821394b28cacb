package protobuf_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/codec/protobuf"
)

// benchTime is a fixed timestamp for the benchmark objects.
var benchTime = meta.Time{Time: time.Date(2026, 3, 1, 12, 30, 0, 0, time.UTC)}

// benchPod returns a pod of about 2 KiB encoded, shaped like the ones a
// Deployment creates: two containers with requests and limits, env, ports
// and mounts, an owner reference, and a running status.
func benchPod() *corev1.Pod {
	grace := int64(30)
	started := true
	container := func(name, image string, cpu, mem string) corev1.Container {
		return corev1.Container{
			Name:  name,
			Image: image,
			Args:  []string{"--port=8080", "--log-level=info"},
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: "TCP"}},
			Env: []corev1.EnvVar{
				{Name: "GOMAXPROCS", Value: "2"},
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
				{Name: "LOG_FORMAT", Value: "json"},
			},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{"cpu": resource.MustParse(cpu), "memory": resource.MustParse(mem)},
				Limits:   corev1.ResourceList{"cpu": resource.MustParse("1"), "memory": resource.MustParse("1Gi")},
			},
			VolumeMounts: []corev1.VolumeMount{
				{Name: "config", MountPath: "/etc/app", ReadOnly: true},
				{Name: "kube-api-access-x7k2p", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true},
			},
			TerminationMessagePath:   "/dev/termination-log",
			TerminationMessagePolicy: "File",
			ImagePullPolicy:          "IfNotPresent",
		}
	}
	status := func(name, image string) corev1.ContainerStatus {
		return corev1.ContainerStatus{
			Name:        name,
			State:       corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: benchTime}},
			Ready:       true,
			Image:       image,
			ImageID:     image + "@sha256:4a5b7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b",
			ContainerID: "containerd://8f1e2d3c4b5a69788796a5b4c3d2e1f0" + name,
			Started:     &started,
		}
	}
	condition := func(typ corev1.PodConditionType) corev1.PodCondition {
		return corev1.PodCondition{Type: typ, Status: "True", LastTransitionTime: benchTime}
	}
	return &corev1.Pod{
		ObjectMeta: meta.ObjectMeta{
			Name:              "web-7d9f8b6c5d-x2k4p",
			GenerateName:      "web-7d9f8b6c5d-",
			Namespace:         "shop",
			UID:               "6f1c2d3e-4a5b-4c7d-8e9f-0a1b2c3d4e5f",
			ResourceVersion:   "184467",
			CreationTimestamp: benchTime,
			Labels:            map[string]string{"app": "web", "pod-template-hash": "7d9f8b6c5d", "tier": "frontend"},
			Annotations:       map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
			OwnerReferences: []meta.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d9f8b6c5d",
				UID: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", Controller: &started, BlockOwnerDeletion: &started,
			}},
		},
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{
				ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"}},
			}}},
			Containers: []corev1.Container{
				container("web", "registry.example.com/shop/web:1.24.3", "250m", "256Mi"),
				container("proxy", "registry.example.com/infra/envoy:1.30.1", "100m", "128Mi"),
			},
			RestartPolicy:                 "Always",
			TerminationGracePeriodSeconds: &grace,
			DNSPolicy:                     "ClusterFirst",
			ServiceAccountName:            "web",
			DeprecatedServiceAccount:      "web",
			NodeName:                      "node-17.zone-b.example.com",
			SchedulerName:                 "default-scheduler",
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &grace},
				{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &grace},
			},
		},
		Status: corev1.PodStatus{
			Phase: "Running",
			Conditions: []corev1.PodCondition{
				condition("Initialized"), condition("Ready"), condition("ContainersReady"), condition("PodScheduled"),
			},
			HostIP:    "10.0.17.4",
			HostIPs:   []corev1.HostIP{{IP: "10.0.17.4"}},
			PodIP:     "10.244.17.23",
			PodIPs:    []corev1.PodIP{{IP: "10.244.17.23"}},
			StartTime: &benchTime,
			ContainerStatuses: []corev1.ContainerStatus{
				status("web", "registry.example.com/shop/web:1.24.3"),
				status("proxy", "registry.example.com/infra/envoy:1.30.1"),
			},
			QOSClass: "Burstable",
		},
	}
}

// benchNode returns a node as a kubelet reports it: capacity and
// allocatable, the usual conditions, addresses, system info and a few images.
func benchNode() *corev1.Node {
	condition := func(typ corev1.NodeConditionType, status corev1.ConditionStatus, reason string) corev1.NodeCondition {
		return corev1.NodeCondition{
			Type: typ, Status: status, LastHeartbeatTime: benchTime, LastTransitionTime: benchTime,
			Reason: reason, Message: "kubelet reports " + reason,
		}
	}
	image := func(name string, size int64) corev1.ContainerImage {
		return corev1.ContainerImage{Names: []string{name + "@sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9", name}, SizeBytes: size}
	}
	return &corev1.Node{
		ObjectMeta: meta.ObjectMeta{
			Name:              "node-17.zone-b.example.com",
			UID:               "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d",
			ResourceVersion:   "184502",
			CreationTimestamp: benchTime,
			Labels: map[string]string{
				"kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux",
				"kubernetes.io/hostname":           "node-17",
				"node.kubernetes.io/instance-type": "m5.xlarge",
				"topology.kubernetes.io/region":    "eu-west-1", "topology.kubernetes.io/zone": "eu-west-1b",
			},
			Annotations: map[string]string{"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
		},
		Spec: corev1.NodeSpec{PodCIDR: "10.244.17.0/24", PodCIDRs: []string{"10.244.17.0/24"}, ProviderID: "aws:///eu-west-1b/i-0a1b2c3d4e5f60718"},
		Status: corev1.NodeStatus{
			Capacity: corev1.ResourceList{
				"cpu": resource.MustParse("4"), "memory": resource.MustParse("16077844Ki"),
				"pods": resource.MustParse("110"), "ephemeral-storage": resource.MustParse("101430960Ki"),
				"hugepages-2Mi": resource.MustParse("0"),
			},
			Allocatable: corev1.ResourceList{
				"cpu": resource.MustParse("3920m"), "memory": resource.MustParse("15048724Ki"),
				"pods": resource.MustParse("110"), "ephemeral-storage": resource.MustParse("93478772582"),
				"hugepages-2Mi": resource.MustParse("0"),
			},
			Conditions: []corev1.NodeCondition{
				condition("MemoryPressure", "False", "KubeletHasSufficientMemory"),
				condition("DiskPressure", "False", "KubeletHasNoDiskPressure"),
				condition("PIDPressure", "False", "KubeletHasSufficientPID"),
				condition("Ready", "True", "KubeletReady"),
			},
			Addresses: []corev1.NodeAddress{
				{Type: "InternalIP", Address: "10.0.17.4"}, {Type: "Hostname", Address: "node-17"},
			},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
			NodeInfo: corev1.NodeSystemInfo{
				MachineID: "ec2a3b4c5d6e7f8091a2b3c4d5e6f708", SystemUUID: "ec2a3b4c-5d6e-7f80-91a2-b3c4d5e6f708",
				BootID: "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9", KernelVersion: "6.1.0-18-cloud-amd64",
				OSImage: "Debian GNU/Linux 12 (bookworm)", ContainerRuntimeVersion: "containerd://1.7.13",
				KubeletVersion: "v1.32.0",
			},
			Images: []corev1.ContainerImage{
				image("registry.example.com/shop/web", 48213411),
				image("registry.example.com/infra/envoy", 61527808),
				image("registry.k8s.io/pause", 321520),
			},
		},
	}
}

// benchmarkUnmarshal decodes data into a fresh value from newMsg per iteration.
func benchmarkUnmarshal(b *testing.B, data []byte, newMsg func() protobuf.Message) {
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := newMsg().UnmarshalProto(data); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkMarshal encodes m into a buffer reused across iterations, as
// the API server's storage layer does.
func benchmarkMarshal(b *testing.B, m protobuf.Message) {
	buf := m.MarshalProto(nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		buf = m.MarshalProto(buf[:0])
	}
}

func BenchmarkPodUnmarshalProto(b *testing.B) {
	benchmarkUnmarshal(b, protobuf.Marshal(benchPod()), func() protobuf.Message { return new(corev1.Pod) })
}

// distinctPods returns n encoded pods that differ as a cluster's pods do:
// each its own name, UID, resource version, IP and container IDs, spread
// over 50 nodes and 20 replica sets; the rest of the spec repeats.
func distinctPods(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		pod := benchPod()
		rs := fmt.Sprintf("web-%010x", 0x7d9f8b6c5d+i%20)
		pod.Name = fmt.Sprintf("%s-%05x", rs, i)
		pod.GenerateName = rs + "-"
		pod.UID = meta.UID(fmt.Sprintf("6f1c2d3e-4a5b-4c7d-8e9f-%012x", i))
		pod.ResourceVersion = fmt.Sprint(184467 + i*3)
		pod.Labels["pod-template-hash"] = rs[4:]
		pod.OwnerReferences[0].Name = rs
		pod.OwnerReferences[0].UID = meta.UID(fmt.Sprintf("0b1c2d3e-4f5a-4b6c-8d7e-%012x", i%20))
		pod.Spec.NodeName = fmt.Sprintf("node-%d.zone-b.example.com", i%50)
		pod.Status.HostIP = fmt.Sprintf("10.0.%d.4", i%50)
		pod.Status.HostIPs = []corev1.HostIP{{IP: pod.Status.HostIP}}
		pod.Status.PodIP = fmt.Sprintf("10.244.%d.%d", i%50, i/50)
		pod.Status.PodIPs = []corev1.PodIP{{IP: pod.Status.PodIP}}
		for j := range pod.Status.ContainerStatuses {
			pod.Status.ContainerStatuses[j].ContainerID = fmt.Sprintf("containerd://%064x", i*2+j)
		}
		out[i] = protobuf.Marshal(pod)
	}
	return out
}

// BenchmarkPodUnmarshalProtoDistinct decodes 2048 different pods in turn,
// as an informer's initial list does, so that only what real pods share
// repeats from one decode to the next.
func BenchmarkPodUnmarshalProtoDistinct(b *testing.B) {
	pods := distinctPods(2048)
	b.ReportAllocs()
	b.SetBytes(int64(len(pods[0])))
	i := 0
	for b.Loop() {
		var pod corev1.Pod
		if err := pod.UnmarshalProto(pods[i%len(pods)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkNodeUnmarshalProto(b *testing.B) {
	benchmarkUnmarshal(b, protobuf.Marshal(benchNode()), func() protobuf.Message { return new(corev1.Node) })
}

func BenchmarkPodMarshalProto(b *testing.B) { benchmarkMarshal(b, benchPod()) }

func BenchmarkNodeMarshalProto(b *testing.B) { benchmarkMarshal(b, benchNode()) }

// BenchmarkPodDecodeEnvelope is the API server's and the informers' path:
// open the envelope, then decode the Pod.
func BenchmarkPodDecodeEnvelope(b *testing.B) {
	data := protobuf.Encode("v1", "Pod", benchPod())
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var pod corev1.Pod
		if _, _, err := protobuf.DecodeInto(data, &pod); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchObjectsRoundTrip keeps the benchmark objects honest: they
// encode to the advertised sizes' order and decode back unchanged.
func TestBenchObjectsRoundTrip(t *testing.T) {
	for name, m := range map[string]protobuf.Message{"pod": benchPod(), "node": benchNode()} {
		data := protobuf.Marshal(m)
		t.Logf("%s: %d bytes", name, len(data))
		var back protobuf.Message = new(corev1.Pod)
		if name == "node" {
			back = new(corev1.Node)
		}
		if err := back.UnmarshalProto(data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if again := protobuf.Marshal(back); string(again) != string(data) {
			t.Errorf("%s: re-encoding differs", name)
		}
	}
}

package v1

import (
	"bytes"
	"encoding/json"
	"testing"

	"platform.io/client/api/apitest"
	"platform.io/client/api/intstr"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t,
		Pod{}, PodList{}, PodTemplate{}, PodTemplateList{}, PodTemplateSpec{},
		Node{}, NodeList{},
		Service{}, ServiceList{},
		Endpoints{}, EndpointsList{},
		ConfigMap{}, ConfigMapList{},
		Secret{}, SecretList{},
		Event{}, EventList{},
		ServiceAccount{}, ServiceAccountList{},
		Namespace{}, NamespaceList{},
		LimitRange{}, LimitRangeList{}, LimitRangeItem{},
		ResourceQuota{}, ResourceQuotaList{}, ScopeSelector{}, ScopedResourceSelectorRequirement{},
		Binding{}, ObjectReference{},
	)
}

// decodeStrict fails t if doc names a field the type T does not have, which
// catches misspelt JSON names that a lenient round trip would silently drop.
func decodeStrict[T any](t *testing.T, doc string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(new(T)); err != nil {
		t.Fatalf("strict decode: %v", err)
	}
}

const podDoc = `{
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {
    "name": "web-7d9c5b6f4d-x2kq9",
    "generateName": "web-7d9c5b6f4d-",
    "namespace": "shop",
    "uid": "6f1c2a9e-3b57-4d0e-9f43-1d2c3b4a5e6f",
    "resourceVersion": "48213",
    "creationTimestamp": "2024-05-01T10:00:00Z",
    "labels": {"app": "web", "pod-template-hash": "7d9c5b6f4d"},
    "annotations": {"platform.io/psp": "restricted"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9c5b6f4d", "uid": "0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f", "controller": true, "blockOwnerDeletion": true}]
  },
  "spec": {
    "volumes": [
      {"name": "config", "configMap": {"name": "web-config", "items": [{"key": "app.yaml", "path": "app.yaml", "mode": 256}], "defaultMode": 420, "optional": false}},
      {"name": "tls", "secret": {"secretName": "web-tls", "defaultMode": 384}},
      {"name": "cache", "emptyDir": {"medium": "Memory", "sizeLimit": "64Mi"}},
      {"name": "logs", "hostPath": {"path": "/var/log/web", "type": "DirectoryOrCreate"}},
      {"name": "data", "persistentVolumeClaim": {"claimName": "web-data", "readOnly": true}},
      {"name": "podinfo", "downwardAPI": {"items": [
        {"path": "labels", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}},
        {"path": "mem_limit", "resourceFieldRef": {"containerName": "app", "resource": "limits.memory", "divisor": "1Mi"}}
      ]}},
      {"name": "token", "projected": {"defaultMode": 420, "sources": [
        {"serviceAccountToken": {"audience": "vault", "expirationSeconds": 3607, "path": "token"}},
        {"configMap": {"name": "platform-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
        {"secret": {"name": "extra", "optional": true}},
        {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
      ]}}
    ],
    "initContainers": [
      {"name": "migrate", "image": "registry.example/web:1.4.2", "command": ["/bin/migrate"], "args": ["--up"], "resources": {"requests": {"cpu": "50m", "memory": "32Mi"}}},
      {"name": "proxy", "image": "registry.example/proxy:2.0", "restartPolicy": "Always", "ports": [{"name": "admin", "containerPort": 15000}]}
    ],
    "containers": [{
      "name": "app",
      "image": "registry.example/web:1.4.2",
      "command": ["/bin/web"],
      "args": ["--listen=:8080", "--config=/etc/web/app.yaml"],
      "workingDir": "/srv",
      "ports": [
        {"name": "http", "containerPort": 8080, "protocol": "TCP"},
        {"name": "metrics", "containerPort": 9090, "hostPort": 19090, "hostIP": "0.0.0.0", "protocol": "TCP"}
      ],
      "envFrom": [{"prefix": "CFG_", "configMapRef": {"name": "web-env", "optional": true}}, {"secretRef": {"name": "web-secrets"}}],
      "env": [
        {"name": "MODE", "value": "production"},
        {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
        {"name": "CPU_LIMIT", "valueFrom": {"resourceFieldRef": {"containerName": "app", "resource": "limits.cpu", "divisor": "1m"}}},
        {"name": "LOG_LEVEL", "valueFrom": {"configMapKeyRef": {"name": "web-config", "key": "log-level", "optional": true}}},
        {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}}
      ],
      "resources": {"limits": {"cpu": "500m", "memory": "256Mi", "ephemeral-storage": "1Gi"}, "requests": {"cpu": "100m", "memory": "64Mi"}},
      "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}],
      "volumeMounts": [
        {"name": "config", "mountPath": "/etc/web", "readOnly": true},
        {"name": "cache", "mountPath": "/cache", "mountPropagation": "None"},
        {"name": "data", "mountPath": "/data", "subPathExpr": "$(POD_NAME)"}
      ],
      "volumeDevices": [{"name": "raw", "devicePath": "/dev/xvdb"}],
      "livenessProbe": {"httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTP", "httpHeaders": [{"name": "X-Probe", "value": "liveness"}]}, "initialDelaySeconds": 10, "timeoutSeconds": 2, "periodSeconds": 15, "successThreshold": 1, "failureThreshold": 3, "terminationGracePeriodSeconds": 20},
      "readinessProbe": {"tcpSocket": {"port": 8080}, "periodSeconds": 5},
      "startupProbe": {"grpc": {"port": 9091, "service": "web.Health"}, "failureThreshold": 30, "periodSeconds": 2},
      "lifecycle": {
        "postStart": {"exec": {"command": ["/bin/sh", "-c", "echo started > /tmp/started"]}},
        "preStop": {"sleep": {"seconds": 5}},
        "stopSignal": "SIGTERM"
      },
      "terminationMessagePath": "/dev/termination-log",
      "terminationMessagePolicy": "FallbackToLogsOnError",
      "imagePullPolicy": "IfNotPresent",
      "securityContext": {
        "capabilities": {"add": ["NET_BIND_SERVICE"], "drop": ["ALL"]},
        "privileged": false,
        "runAsUser": 1000,
        "runAsGroup": 1000,
        "runAsNonRoot": true,
        "readOnlyRootFilesystem": true,
        "allowPrivilegeEscalation": false,
        "seccompProfile": {"type": "RuntimeDefault"},
        "appArmorProfile": {"type": "Localhost", "localhostProfile": "web-profile"}
      },
      "stdin": false,
      "stdinOnce": false,
      "tty": false
    }],
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 45,
    "activeDeadlineSeconds": 86400,
    "dnsPolicy": "ClusterFirst",
    "dnsConfig": {"nameservers": ["10.96.0.10"], "searches": ["shop.svc.cluster.local"], "options": [{"name": "ndots", "value": "2"}, {"name": "edns0"}]},
    "nodeSelector": {"platform.io/os": "linux"},
    "serviceAccountName": "web",
    "serviceAccount": "web",
    "automountServiceAccountToken": false,
    "nodeName": "node-a",
    "hostNetwork": false,
    "hostPID": false,
    "hostIPC": false,
    "shareProcessNamespace": true,
    "securityContext": {"runAsNonRoot": true, "fsGroup": 2000, "fsGroupChangePolicy": "OnRootMismatch", "supplementalGroups": [3000], "supplementalGroupsPolicy": "Strict", "sysctls": [{"name": "net.ipv4.tcp_keepalive_time", "value": "600"}], "seLinuxOptions": {"level": "s0:c123,c456"}},
    "imagePullSecrets": [{"name": "registry-creds"}],
    "hostname": "web-0",
    "subdomain": "web-headless",
    "affinity": {
      "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "platform.io/arch", "operator": "In", "values": ["amd64", "arm64"]}], "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["node-z"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 50, "preference": {"matchExpressions": [{"key": "disk", "operator": "Exists"}]}}]
      },
      "podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "topology.platform.io/zone", "namespaces": ["shop"]}],
        "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 10, "podAffinityTerm": {"labelSelector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["backend"]}]}, "namespaceSelector": {}, "topologyKey": "platform.io/hostname", "matchLabelKeys": ["pod-template-hash"]}}]
      },
      "podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "platform.io/hostname", "mismatchLabelKeys": ["tenant"]}],
        "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "topology.platform.io/zone"}}]
      }
    },
    "schedulerName": "default-scheduler",
    "tolerations": [
      {"key": "node.platform.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
      {"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"}
    ],
    "hostAliases": [{"ip": "10.0.0.5", "hostnames": ["db.internal", "db"]}],
    "priorityClassName": "high",
    "priority": 100000,
    "readinessGates": [{"conditionType": "example.com/lb-ready"}],
    "runtimeClassName": "gvisor",
    "enableServiceLinks": false,
    "preemptionPolicy": "PreemptLowerPriority",
    "overhead": {"cpu": "250m", "memory": "120Mi"},
    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.platform.io/zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}, "minDomains": 3, "nodeAffinityPolicy": "Honor", "nodeTaintsPolicy": "Ignore", "matchLabelKeys": ["pod-template-hash"]}],
    "setHostnameAsFQDN": false,
    "os": {"name": "linux"},
    "hostUsers": false,
    "schedulingGates": [{"name": "example.com/quota"}]
  },
  "status": {
    "observedGeneration": 1,
    "phase": "Running",
    "conditions": [
      {"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": "2024-05-01T10:00:01Z"},
      {"type": "Ready", "status": "False", "lastTransitionTime": "2024-05-01T10:00:30Z", "reason": "ContainersNotReady", "message": "containers with unready status: [app]"}
    ],
    "hostIP": "192.168.1.10",
    "hostIPs": [{"ip": "192.168.1.10"}, {"ip": "fd00::10"}],
    "podIP": "10.244.1.17",
    "podIPs": [{"ip": "10.244.1.17"}, {"ip": "fd00:10:244::17"}],
    "startTime": "2024-05-01T10:00:02Z",
    "initContainerStatuses": [{"name": "migrate", "state": {"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": "2024-05-01T10:00:05Z", "finishedAt": "2024-05-01T10:00:09Z", "containerID": "containerd://aa11"}}, "lastState": {}, "ready": true, "restartCount": 0, "image": "registry.example/web:1.4.2", "imageID": "registry.example/web@sha256:abcd", "containerID": "containerd://aa11", "started": false}],
    "containerStatuses": [
      {"name": "app", "state": {"running": {"startedAt": "2024-05-01T10:00:12Z"}}, "lastState": {"terminated": {"exitCode": 137, "signal": 9, "reason": "OOMKilled", "message": "out of memory", "startedAt": "2024-05-01T09:50:00Z", "finishedAt": "2024-05-01T09:59:59Z", "containerID": "containerd://bb22"}}, "ready": false, "restartCount": 2, "image": "registry.example/web:1.4.2", "imageID": "registry.example/web@sha256:abcd", "containerID": "containerd://cc33", "started": true, "allocatedResources": {"cpu": "100m", "memory": "64Mi"}, "resources": {"limits": {"cpu": "500m"}}, "volumeMounts": [{"name": "config", "mountPath": "/etc/web", "readOnly": true, "recursiveReadOnly": "Disabled"}], "user": {"linux": {"uid": 1000, "gid": 1000, "supplementalGroups": [2000, 3000]}}, "stopSignal": "SIGTERM"},
      {"name": "sidecar", "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 40s restarting failed container"}}, "lastState": {}, "ready": false, "restartCount": 4, "image": "busybox:1.36", "imageID": ""}
    ],
    "qosClass": "Burstable"
  }
}`

func TestPodRoundTrip(t *testing.T) {
	decodeStrict[Pod](t, podDoc)
	p := apitest.RoundTripJSON[Pod](t, podDoc)
	c := p.Spec.Containers[0]
	if got := c.LivenessProbe.HTTPGet.Port; got.Type != intstr.String || got.StrVal != "http" {
		t.Errorf("liveness port = %#v, want the string http", got)
	}
	if got := c.ReadinessProbe.TCPSocket.Port; got.Type != intstr.Int || got.IntVal != 8080 {
		t.Errorf("readiness port = %#v, want 8080", got)
	}
	if c.Env[4].ValueFrom.SecretKeyRef.Name != "db" || c.Env[3].ValueFrom.ConfigMapKeyRef.Key != "log-level" {
		t.Errorf("env valueFrom not decoded: %+v", c.Env)
	}
	if p.Spec.Volumes[0].ConfigMap == nil || p.Spec.Volumes[0].ConfigMap.Name != "web-config" {
		t.Errorf("inline volume source not decoded: %+v", p.Spec.Volumes[0])
	}
	if *p.Spec.InitContainers[1].RestartPolicy != ContainerRestartPolicyAlways {
		t.Errorf("sidecar restart policy not decoded")
	}
	if p.Spec.Tolerations[0].TolerationSeconds == nil || *p.Spec.Tolerations[0].TolerationSeconds != 300 {
		t.Errorf("tolerationSeconds not decoded")
	}
	st := p.Status.ContainerStatuses[0]
	if st.LastTerminationState.Terminated == nil || st.LastTerminationState.Terminated.ExitCode != 137 {
		t.Errorf("lastState not decoded: %+v", st.LastTerminationState)
	}
	if p.Status.QOSClass != PodQOSBurstable || p.Status.Phase != PodRunning {
		t.Errorf("status enums not decoded: %q %q", p.Status.QOSClass, p.Status.Phase)
	}
}

const podListDoc = `{
  "apiVersion": "v1", "kind": "PodList",
  "metadata": {"resourceVersion": "900", "continue": "eyJ2IjoxfQ", "remainingItemCount": 12},
  "items": [
    {"metadata": {"name": "a", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}, "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": "0/3 nodes are available"}]}},
    {"metadata": {"name": "b", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "nginx:1.27", "lifecycle": {"preStop": {"httpGet": {"path": "/drain", "port": 8081, "scheme": "HTTPS"}}}}], "nodeName": "node-b"}, "status": {"phase": "Succeeded"}}
  ]
}`

func TestPodListRoundTrip(t *testing.T) {
	decodeStrict[PodList](t, podListDoc)
	l := apitest.RoundTripJSON[PodList](t, podListDoc)
	if len(l.Items) != 2 || l.Continue != "eyJ2IjoxfQ" || *l.RemainingItemCount != 12 {
		t.Errorf("list not decoded: %+v", l.ListMeta)
	}
}

const nodeDoc = `{
  "apiVersion": "v1",
  "kind": "Node",
  "metadata": {"name": "node-a", "labels": {"platform.io/hostname": "node-a", "platform.io/os": "linux", "topology.platform.io/zone": "eu-1a"}, "creationTimestamp": "2024-04-01T00:00:00Z"},
  "spec": {
    "podCIDR": "10.244.1.0/24",
    "podCIDRs": ["10.244.1.0/24", "fd00:10:244:1::/64"],
    "providerID": "metal://rack3/node-a",
    "unschedulable": true,
    "taints": [
      {"key": "node.platform.io/unschedulable", "effect": "NoSchedule", "timeAdded": "2024-05-01T08:00:00Z"},
      {"key": "dedicated", "value": "gpu", "effect": "PreferNoSchedule"}
    ]
  },
  "status": {
    "capacity": {"cpu": "8", "memory": "32882060Ki", "ephemeral-storage": "102687672Ki", "pods": "110", "hugepages-2Mi": "0"},
    "allocatable": {"cpu": "7800m", "memory": "32256Mi", "ephemeral-storage": "94636958175", "pods": "110"},
    "phase": "Running",
    "conditions": [
      {"type": "Ready", "status": "True", "lastHeartbeatTime": "2024-05-01T10:00:00Z", "lastTransitionTime": "2024-04-01T00:01:00Z", "reason": "KubeletReady", "message": "node agent is posting ready status"},
      {"type": "MemoryPressure", "status": "False", "lastHeartbeatTime": "2024-05-01T10:00:00Z", "lastTransitionTime": "2024-04-01T00:01:00Z", "reason": "KubeletHasSufficientMemory", "message": "sufficient memory available"},
      {"type": "DiskPressure", "status": "False", "lastHeartbeatTime": "2024-05-01T10:00:00Z", "lastTransitionTime": "2024-04-01T00:01:00Z"},
      {"type": "PIDPressure", "status": "Unknown", "lastHeartbeatTime": "2024-05-01T10:00:00Z", "lastTransitionTime": "2024-05-01T09:00:00Z", "reason": "NodeStatusUnknown"}
    ],
    "addresses": [{"type": "InternalIP", "address": "192.168.1.10"}, {"type": "Hostname", "address": "node-a"}],
    "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
    "nodeInfo": {"machineID": "9f0e", "systemUUID": "4c4c4544", "bootID": "b007", "kernelVersion": "6.1.0-18-amd64", "osImage": "Debian GNU/Linux 12 (bookworm)", "containerRuntimeVersion": "containerd://1.7.13", "kubeletVersion": "v1.31.0", "kubeProxyVersion": "", "operatingSystem": "linux", "architecture": "amd64", "swap": {"capacity": 0}},
    "images": [{"names": ["registry.example/web@sha256:abcd", "registry.example/web:1.4.2"], "sizeBytes": 52428800}],
    "volumesInUse": ["platform.io/csi/ebs^vol-1"],
    "volumesAttached": [{"name": "platform.io/csi/ebs^vol-1", "devicePath": "/dev/xvdb"}],
    "runtimeHandlers": [{"name": "", "features": {"recursiveReadOnlyMounts": true, "userNamespaces": false}}, {"name": "runsc"}],
    "features": {"supplementalGroupsPolicy": true},
    "declaredFeatures": ["InPlacePodVerticalScaling"]
  }
}`

func TestNodeRoundTrip(t *testing.T) {
	decodeStrict[Node](t, nodeDoc)
	n := apitest.RoundTripJSON[Node](t, nodeDoc)
	if n.Status.DaemonEndpoints.KubeletEndpoint.Port != 10250 {
		t.Errorf("daemon endpoint port not decoded")
	}
	if len(n.Spec.Taints) != 2 || n.Spec.Taints[0].Effect != TaintEffectNoSchedule || n.Spec.Taints[0].TimeAdded == nil {
		t.Errorf("taints not decoded: %+v", n.Spec.Taints)
	}
	if n.Status.Conditions[0].Type != NodeReady || n.Status.Conditions[0].Status != ConditionTrue {
		t.Errorf("conditions not decoded: %+v", n.Status.Conditions[0])
	}
	if _, ok := n.Status.Capacity[ResourcePods]; !ok {
		t.Errorf("capacity lacks pods: %v", n.Status.Capacity)
	}
}

const serviceDoc = `{
  "apiVersion": "v1",
  "kind": "Service",
  "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
  "spec": {
    "ports": [
      {"name": "http", "protocol": "TCP", "appProtocol": "http", "port": 80, "targetPort": "http", "nodePort": 30080},
      {"name": "metrics", "protocol": "TCP", "port": 9090, "targetPort": 9090, "nodePort": 30090},
      {"name": "dns", "protocol": "UDP", "port": 53, "targetPort": 5353}
    ],
    "selector": {"app": "web"},
    "clusterIP": "10.96.12.34",
    "clusterIPs": ["10.96.12.34", "fd00:96::1234"],
    "type": "LoadBalancer",
    "externalIPs": ["203.0.113.10"],
    "sessionAffinity": "ClientIP",
    "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 10800}},
    "loadBalancerIP": "203.0.113.20",
    "loadBalancerSourceRanges": ["198.51.100.0/24"],
    "externalTrafficPolicy": "Local",
    "healthCheckNodePort": 31999,
    "publishNotReadyAddresses": true,
    "ipFamilies": ["IPv4", "IPv6"],
    "ipFamilyPolicy": "PreferDualStack",
    "allocateLoadBalancerNodePorts": true,
    "loadBalancerClass": "example.com/metal-lb",
    "internalTrafficPolicy": "Cluster",
    "trafficDistribution": "PreferSameZone"
  },
  "status": {
    "loadBalancer": {"ingress": [
      {"ip": "203.0.113.20", "ipMode": "VIP", "ports": [{"port": 80, "protocol": "TCP"}, {"port": 53, "protocol": "UDP", "error": "MixedProtocolNotSupported"}]},
      {"hostname": "web.lb.example.com"}
    ]},
    "conditions": [{"type": "LoadBalancerPortsError", "status": "True", "observedGeneration": 3, "lastTransitionTime": "2024-05-01T10:00:00Z", "reason": "LoadBalancerMixedProtocolNotSupported", "message": "mixed protocols are not supported"}]
  }
}`

func TestServiceRoundTrip(t *testing.T) {
	decodeStrict[Service](t, serviceDoc)
	s := apitest.RoundTripJSON[Service](t, serviceDoc)
	if tp := s.Spec.Ports[0].TargetPort; tp.Type != intstr.String || tp.StrVal != "http" {
		t.Errorf("targetPort[0] = %#v, want the string http", tp)
	}
	if tp := s.Spec.Ports[1].TargetPort; tp.Type != intstr.Int || tp.IntVal != 9090 {
		t.Errorf("targetPort[1] = %#v, want 9090", tp)
	}
	out, err := json.Marshal(s.Spec.Ports)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"targetPort":"http"`)) || !bytes.Contains(out, []byte(`"targetPort":9090`)) {
		t.Errorf("targetPort not re-encoded in its original form: %s", out)
	}
	if s.Spec.Type != ServiceTypeLoadBalancer || *s.Spec.IPFamilyPolicy != IPFamilyPolicyPreferDualStack {
		t.Errorf("spec enums not decoded")
	}
	if *s.Status.LoadBalancer.Ingress[0].IPMode != LoadBalancerIPModeVIP || s.Status.Conditions[0].ObservedGeneration != 3 {
		t.Errorf("status not decoded: %+v", s.Status)
	}
}

const endpointsDoc = `{
  "apiVersion": "v1", "kind": "Endpoints",
  "metadata": {"name": "web", "namespace": "shop"},
  "subsets": [{
    "addresses": [{"ip": "10.244.1.17", "hostname": "web-0", "nodeName": "node-a", "targetRef": {"kind": "Pod", "namespace": "shop", "name": "web-0", "uid": "6f1c2a9e-3b57-4d0e-9f43-1d2c3b4a5e6f"}}],
    "notReadyAddresses": [{"ip": "10.244.2.8", "targetRef": {"kind": "Pod", "namespace": "shop", "name": "web-1"}}],
    "ports": [{"name": "http", "port": 8080, "protocol": "TCP", "appProtocol": "http"}]
  }]
}`

func TestEndpointsRoundTrip(t *testing.T) {
	decodeStrict[Endpoints](t, endpointsDoc)
	e := apitest.RoundTripJSON[Endpoints](t, endpointsDoc)
	if *e.Subsets[0].Addresses[0].NodeName != "node-a" || e.Subsets[0].NotReadyAddresses[0].TargetRef.Name != "web-1" {
		t.Errorf("subsets not decoded: %+v", e.Subsets)
	}
}

const secretDoc = `{
  "apiVersion": "v1", "kind": "Secret",
  "metadata": {"name": "db", "namespace": "shop", "annotations": {"platform.io/service-account.name": "web"}},
  "type": "platform.io/basic-auth",
  "immutable": true,
  "data": {"username": "YWRtaW4=", "password": "czNjcjN0IQ==", "blob": "AAEC/w=="},
  "stringData": {"note": "plain text"}
}`

func TestSecretRoundTrip(t *testing.T) {
	decodeStrict[Secret](t, secretDoc)
	s := apitest.RoundTripJSON[Secret](t, secretDoc)
	if string(s.Data["username"]) != "admin" || string(s.Data["password"]) != "s3cr3t!" {
		t.Errorf("data not base64-decoded: %q", s.Data)
	}
	if !bytes.Equal(s.Data["blob"], []byte{0, 1, 2, 255}) {
		t.Errorf("binary data = %v", s.Data["blob"])
	}
	if s.Type != SecretTypeBasicAuth || !*s.Immutable || s.StringData["note"] != "plain text" {
		t.Errorf("secret fields not decoded: %+v", s)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"password":"czNjcjN0IQ=="`)) {
		t.Errorf("data not re-encoded as base64: %s", out)
	}
}

const configMapDoc = `{
  "apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {"name": "web-config", "namespace": "shop"},
  "immutable": false,
  "data": {"app.yaml": "listen: :8080\nlog-level: info\n", "log-level": "info"},
  "binaryData": {"logo.png": "iVBORw0KGgo="}
}`

func TestConfigMapRoundTrip(t *testing.T) {
	decodeStrict[ConfigMap](t, configMapDoc)
	c := apitest.RoundTripJSON[ConfigMap](t, configMapDoc)
	if !bytes.Equal(c.BinaryData["logo.png"], []byte("\x89PNG\r\n\x1a\n")) || c.Data["log-level"] != "info" {
		t.Errorf("config map not decoded: %+v", c)
	}
}

const eventDoc = `{
  "apiVersion": "v1", "kind": "Event",
  "metadata": {"name": "web-0.17c8f0a1b2c3d4e5", "namespace": "shop"},
  "involvedObject": {"kind": "Pod", "namespace": "shop", "name": "web-0", "uid": "6f1c2a9e-3b57-4d0e-9f43-1d2c3b4a5e6f", "apiVersion": "v1", "resourceVersion": "48213", "fieldPath": "spec.containers{app}"},
  "reason": "BackOff",
  "message": "Back-off restarting failed container app",
  "source": {"component": "kubelet", "host": "node-a"},
  "firstTimestamp": "2024-05-01T10:01:00Z",
  "lastTimestamp": "2024-05-01T10:05:00Z",
  "count": 7,
  "type": "Warning",
  "eventTime": "2024-05-01T10:01:00.123456Z",
  "series": {"count": 7, "lastObservedTime": "2024-05-01T10:05:00.654321Z"},
  "action": "Restarting",
  "related": {"kind": "Node", "name": "node-a"},
  "reportingComponent": "kubelet",
  "reportingInstance": "node-a"
}`

func TestEventRoundTrip(t *testing.T) {
	decodeStrict[Event](t, eventDoc)
	e := apitest.RoundTripJSON[Event](t, eventDoc)
	if e.EventTime.Nanosecond() != 123456000 || e.Series.LastObservedTime.Nanosecond() != 654321000 {
		t.Errorf("micro times not decoded: %v %v", e.EventTime, e.Series.LastObservedTime)
	}
	if e.ReportingController != "kubelet" || e.Type != EventTypeWarning || e.InvolvedObject.FieldPath != "spec.containers{app}" {
		t.Errorf("event fields not decoded: %+v", e)
	}
}

const serviceAccountDoc = `{
  "apiVersion": "v1", "kind": "ServiceAccount",
  "metadata": {"name": "web", "namespace": "shop"},
  "secrets": [{"name": "web-token-abcde"}],
  "imagePullSecrets": [{"name": "registry-creds"}],
  "automountServiceAccountToken": false
}`

func TestServiceAccountRoundTrip(t *testing.T) {
	decodeStrict[ServiceAccount](t, serviceAccountDoc)
	sa := apitest.RoundTripJSON[ServiceAccount](t, serviceAccountDoc)
	if sa.Secrets[0].Name != "web-token-abcde" || *sa.AutomountServiceAccountToken {
		t.Errorf("service account not decoded: %+v", sa)
	}
}

const namespaceDoc = `{
  "apiVersion": "v1", "kind": "Namespace",
  "metadata": {"name": "shop", "labels": {"platform.io/metadata.name": "shop"}, "deletionTimestamp": "2024-05-02T00:00:00Z"},
  "spec": {"finalizers": ["platform"]},
  "status": {"phase": "Terminating", "conditions": [{"type": "NamespaceContentRemaining", "status": "True", "lastTransitionTime": "2024-05-02T00:00:05Z", "reason": "SomeResourcesRemain", "message": "Some resources are remaining: pods. has 2 resource instances"}]}
}`

func TestNamespaceRoundTrip(t *testing.T) {
	decodeStrict[Namespace](t, namespaceDoc)
	ns := apitest.RoundTripJSON[Namespace](t, namespaceDoc)
	if len(ns.Spec.Finalizers) != 1 || ns.Spec.Finalizers[0] != FinalizerPlatform {
		t.Errorf("finalizers = %v", ns.Spec.Finalizers)
	}
	if ns.Status.Phase != NamespaceTerminating || ns.Status.Conditions[0].Type != NamespaceContentRemaining {
		t.Errorf("status not decoded: %+v", ns.Status)
	}
}

const bindingDoc = `{
  "apiVersion": "v1", "kind": "Binding",
  "metadata": {"name": "web-0", "namespace": "shop", "uid": "6f1c2a9e-3b57-4d0e-9f43-1d2c3b4a5e6f"},
  "target": {"apiVersion": "v1", "kind": "Node", "name": "node-a"}
}`

func TestBindingRoundTrip(t *testing.T) {
	decodeStrict[Binding](t, bindingDoc)
	b := apitest.RoundTripJSON[Binding](t, bindingDoc)
	if b.Target.Kind != "Node" || b.Target.Name != "node-a" {
		t.Errorf("target not decoded: %+v", b.Target)
	}
}

func TestEphemeralContainerInline(t *testing.T) {
	const doc = `{"name": "debug", "image": "busybox:1.36", "stdin": true, "tty": true, "targetContainerName": "app"}`
	decodeStrict[EphemeralContainer](t, doc)
	ec := apitest.RoundTripJSON[EphemeralContainer](t, doc)
	if ec.Name != "debug" || ec.TargetContainerName != "app" || !ec.TTY {
		t.Errorf("ephemeral container not decoded: %+v", ec)
	}
	if c := Container(ec.EphemeralContainerCommon); c.Image != "busybox:1.36" {
		t.Errorf("conversion to Container lost the image")
	}
}

// TestQuotaTypesJSON decodes upstream-shaped LimitRange and ResourceQuota
// documents strictly and round-trips them through protobuf.
func TestQuotaTypesJSON(t *testing.T) {
	decodeStrict[LimitRange](t, `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr","namespace":"ns"},
"spec":{"limits":[{"type":"Container","max":{"cpu":"1"},"min":{"cpu":"100m"},"default":{"cpu":"500m"},
"defaultRequest":{"cpu":"200m"},"maxLimitRequestRatio":{"cpu":"5"}}]}}`)
	decodeStrict[ResourceQuota](t, `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q","namespace":"ns"},
"spec":{"hard":{"pods":"2","requests.cpu":"1"},"scopes":["NotTerminating"],
"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high"]}]}},
"status":{"hard":{"pods":"2"},"used":{"pods":"1"}}}`)
	var q ResourceQuota
	if err := json.Unmarshal([]byte(`{"spec":{"hard":{"pods":"2"},"scopes":["BestEffort"]},"status":{"used":{"pods":"1"}}}`), &q); err != nil {
		t.Fatal(err)
	}
	var back ResourceQuota
	if err := back.UnmarshalProto(q.MarshalProto(nil)); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(q)
	b, _ := json.Marshal(back)
	if !bytes.Equal(a, b) {
		t.Errorf("protobuf round trip: %s, want %s", b, a)
	}
}

package v1

import (
	"encoding/json"
	"strings"
	"testing"

	"platform.io/client/api/apitest"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

var (
	_ meta.Object     = &Deployment{}
	_ meta.Object     = &ReplicaSet{}
	_ meta.Object     = &DaemonSet{}
	_ meta.Object     = &StatefulSet{}
	_ meta.Object     = &ControllerRevision{}
	_ meta.ListObject = &DeploymentList{}
	_ meta.ListObject = &ReplicaSetList{}
	_ meta.ListObject = &DaemonSetList{}
	_ meta.ListObject = &StatefulSetList{}
	_ meta.ListObject = &ControllerRevisionList{}
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t,
		Deployment{}, DeploymentList{},
		ReplicaSet{}, ReplicaSetList{},
		DaemonSet{}, DaemonSetList{},
		StatefulSet{}, StatefulSetList{},
		ControllerRevision{}, ControllerRevisionList{},
	)
}

func TestGroupVersion(t *testing.T) {
	if got := SchemeGroupVersion.String(); got != "apps/v1" {
		t.Errorf("SchemeGroupVersion = %q", got)
	}
	if got := Kind("Deployment"); got != (meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}) {
		t.Errorf("Kind = %+v", got)
	}
	if got := Resource("deployments").String(); got != "deployments.apps" {
		t.Errorf("Resource = %q", got)
	}
}

// podTemplate has no resource quantities, so it round trips regardless of
// the state of the resource package.
const podTemplate = `{
	"metadata": {"labels": {"app": "web"}},
	"spec": {
		"containers": [{
			"name": "nginx",
			"image": "nginx:1.27",
			"ports": [{"containerPort": 80, "protocol": "TCP"}]
		}],
		"restartPolicy": "Always",
		"terminationGracePeriodSeconds": 30
	}
}`

func TestDeploymentRoundTrip(t *testing.T) {
	d := apitest.RoundTripJSON[Deployment](t, `{
		"kind": "Deployment",
		"apiVersion": "apps/v1",
		"metadata": {
			"name": "web",
			"namespace": "default",
			"uid": "5f0c3a8e-2b1d-4e7a-9c61-0d2f4b8a7e10",
			"resourceVersion": "4711",
			"generation": 3,
			"creationTimestamp": "2024-05-01T10:00:00Z",
			"labels": {"app": "web"},
			"annotations": {"deployment.platform.io/revision": "2"}
		},
		"spec": {
			"replicas": 3,
			"selector": {"matchLabels": {"app": "web"}},
			"template": `+podTemplate+`,
			"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": "25%"}},
			"minReadySeconds": 5,
			"revisionHistoryLimit": 10,
			"progressDeadlineSeconds": 600
		},
		"status": {
			"observedGeneration": 3,
			"replicas": 3,
			"updatedReplicas": 3,
			"readyReplicas": 3,
			"availableReplicas": 3,
			"terminatingReplicas": 0,
			"conditions": [
				{"type": "Available", "status": "True", "lastUpdateTime": "2024-05-01T10:01:00Z", "lastTransitionTime": "2024-05-01T10:01:00Z", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability."},
				{"type": "Progressing", "status": "True", "lastUpdateTime": "2024-05-01T10:02:00Z", "lastTransitionTime": "2024-05-01T10:00:00Z", "reason": "NewReplicaSetAvailable", "message": "ReplicaSet \"web-7d4b9c\" has successfully progressed."}
			],
			"collisionCount": 1
		}
	}`)
	ru := d.Spec.Strategy.RollingUpdate
	if ru == nil || *ru.MaxUnavailable != intstr.FromInt(1) || *ru.MaxSurge != intstr.FromString("25%") {
		t.Errorf("rollingUpdate = %+v", ru)
	}
	if d.Spec.Strategy.Type != RollingUpdateDeploymentStrategyType || *d.Spec.Replicas != 3 || d.Spec.Selector.MatchLabels["app"] != "web" {
		t.Errorf("spec = %+v", d.Spec)
	}
	if d.Status.TerminatingReplicas == nil || *d.Status.TerminatingReplicas != 0 || *d.Status.CollisionCount != 1 {
		t.Errorf("status = %+v", d.Status)
	}
	if len(d.Status.Conditions) != 2 || d.Status.Conditions[0].Type != DeploymentAvailable || d.Status.Conditions[1].Type != DeploymentProgressing {
		t.Errorf("conditions = %+v", d.Status.Conditions)
	}
}

// TestDeploymentWithResources round trips a template with resource
// quantities; it depends on Quantity's JSON methods.
func TestDeploymentWithResources(t *testing.T) {
	apitest.RoundTripJSON[Deployment](t, `{
		"kind": "Deployment",
		"apiVersion": "apps/v1",
		"metadata": {"name": "api", "namespace": "prod"},
		"spec": {
			"replicas": 2,
			"selector": {"matchLabels": {"app": "api"}},
			"template": {
				"metadata": {"labels": {"app": "api"}},
				"spec": {"containers": [{
					"name": "api",
					"image": "registry.example.com/api:2.4.1",
					"resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"cpu": "1", "memory": "1Gi"}}
				}]}
			},
			"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "10%", "maxSurge": 1}}
		}
	}`)
}

func TestDeploymentRecreateEncoding(t *testing.T) {
	d := Deployment{Spec: DeploymentSpec{Strategy: DeploymentStrategy{Type: RecreateDeploymentStrategyType}}}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`"strategy":{"type":"Recreate"}`, `"selector":null`, `"status":{}`} {
		if !strings.Contains(s, want) {
			t.Errorf("encoding %s lacks %s", s, want)
		}
	}
	if strings.Contains(s, "rollingUpdate") || strings.Contains(s, `"replicas"`) || strings.Contains(s, "paused") {
		t.Errorf("encoding %s has unset fields", s)
	}
}

func TestReplicaSetRoundTrip(t *testing.T) {
	rs := apitest.RoundTripJSON[ReplicaSet](t, `{
		"kind": "ReplicaSet",
		"apiVersion": "apps/v1",
		"metadata": {
			"name": "web-7d4b9c",
			"namespace": "default",
			"labels": {"app": "web", "pod-template-hash": "7d4b9c"},
			"ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": "5f0c3a8e-2b1d-4e7a-9c61-0d2f4b8a7e10", "controller": true, "blockOwnerDeletion": true}]
		},
		"spec": {
			"replicas": 3,
			"minReadySeconds": 5,
			"selector": {"matchLabels": {"app": "web", "pod-template-hash": "7d4b9c"}},
			"template": `+podTemplate+`
		},
		"status": {
			"replicas": 3,
			"fullyLabeledReplicas": 3,
			"readyReplicas": 2,
			"availableReplicas": 2,
			"observedGeneration": 1,
			"conditions": [{"type": "ReplicaFailure", "status": "True", "lastTransitionTime": "2024-05-01T10:00:00Z", "reason": "FailedCreate", "message": "pods \"web-7d4b9c-x\" is forbidden: exceeded quota"}]
		}
	}`)
	if rs.Status.Conditions[0].Type != ReplicaSetReplicaFailure || rs.Status.ReadyReplicas != 2 || rs.Spec.MinReadySeconds != 5 {
		t.Errorf("decoded %+v", rs)
	}
	if rs.Spec.Selector.MatchLabels[DefaultDeploymentUniqueLabelKey] != "7d4b9c" {
		t.Errorf("selector = %+v", rs.Spec.Selector)
	}
	out, _ := json.Marshal(ReplicaSet{})
	if !strings.Contains(string(out), `"status":{"replicas":0}`) {
		t.Errorf("zero ReplicaSet encodes as %s", out)
	}
}

func TestDaemonSetRoundTrip(t *testing.T) {
	ds := apitest.RoundTripJSON[DaemonSet](t, `{
		"kind": "DaemonSet",
		"apiVersion": "apps/v1",
		"metadata": {"name": "node-agent", "namespace": "platform-system", "generation": 2},
		"spec": {
			"selector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["node-agent"]}]},
			"template": `+podTemplate+`,
			"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "10%", "maxSurge": 0}},
			"minReadySeconds": 10,
			"revisionHistoryLimit": 5
		},
		"status": {
			"currentNumberScheduled": 4,
			"numberMisscheduled": 0,
			"desiredNumberScheduled": 5,
			"numberReady": 4,
			"observedGeneration": 2,
			"updatedNumberScheduled": 3,
			"numberAvailable": 4,
			"numberUnavailable": 1,
			"collisionCount": 0
		}
	}`)
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != RollingUpdateDaemonSetStrategyType || *ru.MaxUnavailable != intstr.FromString("10%") || *ru.MaxSurge != intstr.FromInt(0) {
		t.Errorf("updateStrategy = %+v / %+v", ds.Spec.UpdateStrategy, ru)
	}
	if ds.Status.DesiredNumberScheduled != 5 || ds.Status.NumberUnavailable != 1 {
		t.Errorf("status = %+v", ds.Status)
	}
	out, _ := json.Marshal(DaemonSetStatus{})
	if string(out) != `{"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,"numberReady":0}` {
		t.Errorf("zero status encodes as %s", out)
	}
}

func TestStatefulSetRoundTrip(t *testing.T) {
	ss := apitest.RoundTripJSON[StatefulSet](t, `{
		"kind": "StatefulSet",
		"apiVersion": "apps/v1",
		"metadata": {"name": "db", "namespace": "default"},
		"spec": {
			"replicas": 3,
			"selector": {"matchLabels": {"app": "db"}},
			"template": `+podTemplate+`,
			"volumeClaimTemplates": [{
				"apiVersion": "v1",
				"kind": "PersistentVolumeClaim",
				"metadata": {"name": "data"},
				"spec": {"accessModes":["ReadWriteOnce"],"storageClassName":"fast","resources":{"requests":{"storage":"10Gi"}},"volumeMode":"Filesystem"},
				"status": {"phase":"Pending"}
			}],
			"serviceName": "db",
			"podManagementPolicy": "Parallel",
			"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 1, "maxUnavailable": "50%"}},
			"revisionHistoryLimit": 10,
			"minReadySeconds": 0,
			"persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete", "whenScaled": "Retain"},
			"ordinals": {"start": 1}
		},
		"status": {
			"observedGeneration": 1,
			"replicas": 3,
			"readyReplicas": 3,
			"currentReplicas": 2,
			"updatedReplicas": 1,
			"currentRevision": "db-5c8f7d",
			"updateRevision": "db-6b9a1e",
			"collisionCount": 0,
			"availableReplicas": 3
		}
	}`)
	if ss.Spec.PodManagementPolicy != ParallelPodManagement || ss.Spec.UpdateStrategy.Type != RollingUpdateStatefulSetStrategyType {
		t.Errorf("spec = %+v", ss.Spec)
	}
	if ru := ss.Spec.UpdateStrategy.RollingUpdate; *ru.Partition != 1 || *ru.MaxUnavailable != intstr.FromString("50%") {
		t.Errorf("rollingUpdate = %+v", ru)
	}
	p := ss.Spec.PersistentVolumeClaimRetentionPolicy
	if p.WhenDeleted != DeletePersistentVolumeClaimRetentionPolicyType || p.WhenScaled != RetainPersistentVolumeClaimRetentionPolicyType {
		t.Errorf("retention = %+v", p)
	}
	vct := ss.Spec.VolumeClaimTemplates
	if len(vct) != 1 || vct[0].Name != "data" || vct[0].Kind != "PersistentVolumeClaim" {
		t.Fatalf("volumeClaimTemplates = %+v", vct)
	}
	var spec struct {
		AccessModes []string `json:"accessModes"`
		Resources   struct {
			Requests map[string]string `json:"requests"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(vct[0].Spec, &spec); err != nil || spec.AccessModes[0] != "ReadWriteOnce" || spec.Resources.Requests["storage"] != "10Gi" {
		t.Errorf("claim spec %s decodes as %+v (%v)", vct[0].Spec, spec, err)
	}
	out, _ := json.Marshal(StatefulSetSpec{Ordinals: &StatefulSetOrdinals{}})
	if !strings.Contains(string(out), `"ordinals":{"start":0}`) || !strings.Contains(string(out), `"serviceName":""`) {
		t.Errorf("spec encodes as %s", out)
	}
	out, _ = json.Marshal(PersistentVolumeClaim{})
	if string(out) != `{"metadata":{"creationTimestamp":null}}` {
		t.Errorf("empty claim encodes as %s", out)
	}
}

func TestControllerRevisionRoundTrip(t *testing.T) {
	cr := apitest.RoundTripJSON[ControllerRevision](t, `{
		"kind": "ControllerRevision",
		"apiVersion": "apps/v1",
		"metadata": {
			"name": "db-5c8f7d",
			"namespace": "default",
			"labels": {"app": "db", "controller-revision-hash": "5c8f7d"},
			"ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "db", "uid": "0b6a8f43-96e1-4c1d-8a52-3f7e2d9c1b04", "controller": true, "blockOwnerDeletion": true}]
		},
		"data": {"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"pg","image":"postgres:16"}]}}}},
		"revision": 2
	}`)
	if cr.Revision != 2 || !strings.HasPrefix(string(cr.Data.Raw), `{"spec":{"template":{"$patch":"replace"`) {
		t.Errorf("decoded revision %d data %s", cr.Revision, cr.Data.Raw)
	}
	out, err := json.Marshal(ControllerRevision{Revision: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"data":null,"revision":1`) {
		t.Errorf("empty revision encodes as %s", out)
	}
	var empty ControllerRevision
	if err := json.Unmarshal([]byte(`{"data":null,"revision":1}`), &empty); err != nil || empty.Data.Raw != nil {
		t.Errorf("null data decodes as %q (%v)", empty.Data.Raw, err)
	}
}

func TestListsRoundTrip(t *testing.T) {
	l := apitest.RoundTripJSON[DeploymentList](t, `{
		"kind": "DeploymentList",
		"apiVersion": "apps/v1",
		"metadata": {"resourceVersion": "9001", "continue": "eyJydiI6OTAwMX0", "remainingItemCount": 4},
		"items": [
			{"metadata": {"name": "a"}, "spec": {"selector": {"matchLabels": {"app": "a"}}, "template": `+podTemplate+`, "strategy": {"type": "Recreate"}}},
			{"metadata": {"name": "b"}, "spec": {"paused": true, "selector": {"matchLabels": {"app": "b"}}, "template": `+podTemplate+`}}
		]
	}`)
	if len(l.Items) != 2 || !l.Items[1].Spec.Paused || *l.RemainingItemCount != 4 {
		t.Errorf("decoded %+v", l)
	}
	apitest.RoundTripJSON[ReplicaSetList](t, `{"kind":"ReplicaSetList","apiVersion":"apps/v1","metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"x"},"status":{"replicas":1}}]}`)
	apitest.RoundTripJSON[DaemonSetList](t, `{"kind":"DaemonSetList","apiVersion":"apps/v1","metadata":{},"items":[]}`)
	apitest.RoundTripJSON[StatefulSetList](t, `{"kind":"StatefulSetList","apiVersion":"apps/v1","metadata":{},"items":[{"metadata":{"name":"db"},"spec":{"serviceName":"db"}}]}`)
	apitest.RoundTripJSON[ControllerRevisionList](t, `{"kind":"ControllerRevisionList","apiVersion":"apps/v1","metadata":{},"items":[{"metadata":{"name":"r"},"data":{"a":1},"revision":7}]}`)
	out, _ := json.Marshal(DaemonSetList{})
	if !strings.Contains(string(out), `"items":null`) {
		t.Errorf("empty list encodes as %s", out)
	}
}

func TestConstants(t *testing.T) {
	checks := [][2]string{
		{string(RecreateDeploymentStrategyType), "Recreate"},
		{string(RollingUpdateDeploymentStrategyType), "RollingUpdate"},
		{string(DeploymentAvailable), "Available"},
		{string(DeploymentProgressing), "Progressing"},
		{string(DeploymentReplicaFailure), "ReplicaFailure"},
		{string(ReplicaSetReplicaFailure), "ReplicaFailure"},
		{string(OrderedReadyPodManagement), "OrderedReady"},
		{string(ParallelPodManagement), "Parallel"},
		{string(RollingUpdateStatefulSetStrategyType), "RollingUpdate"},
		{string(OnDeleteStatefulSetStrategyType), "OnDelete"},
		{string(RollingUpdateDaemonSetStrategyType), "RollingUpdate"},
		{string(OnDeleteDaemonSetStrategyType), "OnDelete"},
		{string(RetainPersistentVolumeClaimRetentionPolicyType), "Retain"},
		{string(DeletePersistentVolumeClaimRetentionPolicyType), "Delete"},
		{DefaultDeploymentUniqueLabelKey, "pod-template-hash"},
		{DefaultDaemonSetUniqueLabelKey, "controller-revision-hash"},
		{StatefulSetRevisionLabel, "controller-revision-hash"},
		{StatefulSetPodNameLabel, "statefulset.platform.io/pod-name"},
		{PodIndexLabel, "apps.platform.io/pod-index"},
	}
	for _, c := range checks {
		if got, want := c[0], c[1]; got != want {
			t.Errorf("constant %q, want %q", got, want)
		}
	}
}

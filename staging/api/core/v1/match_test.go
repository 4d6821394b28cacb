package v1

import (
	"testing"

	"platform.io/client/api/meta"
)

func TestToleratesTaint(t *testing.T) {
	taint := Taint{Key: "k", Value: "v", Effect: TaintEffectNoSchedule}
	tests := []struct {
		name string
		tol  Toleration
		want bool
	}{
		{"equal", Toleration{Key: "k", Value: "v", Effect: TaintEffectNoSchedule}, true},
		{"default operator is Equal", Toleration{Key: "k", Value: "v"}, true},
		{"other value", Toleration{Key: "k", Value: "w"}, false},
		{"other effect", Toleration{Key: "k", Value: "v", Effect: TaintEffectNoExecute}, false},
		{"exists on key", Toleration{Key: "k", Operator: TolerationOpExists}, true},
		{"exists on everything", Toleration{Operator: TolerationOpExists}, true},
		{"empty key with Equal matches nothing", Toleration{Value: "v"}, false},
		{"other key", Toleration{Key: "x", Operator: TolerationOpExists}, false},
	}
	for _, tc := range tests {
		if got := tc.tol.ToleratesTaint(&taint); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	num := Taint{Key: "n", Value: "5", Effect: TaintEffectNoSchedule}
	if !(&Toleration{Key: "n", Operator: TolerationOpGt, Value: "3"}).ToleratesTaint(&num) {
		t.Error("Gt 3 does not tolerate 5")
	}
	if (&Toleration{Key: "n", Operator: TolerationOpLt, Value: "3"}).ToleratesTaint(&num) {
		t.Error("Lt 3 tolerates 5")
	}
}

func TestFindUntoleratedTaint(t *testing.T) {
	taints := []Taint{{Key: "a", Effect: TaintEffectPreferNoSchedule}, {Key: "b", Effect: TaintEffectNoSchedule}}
	hard := func(t *Taint) bool { return t.Effect != TaintEffectPreferNoSchedule }
	got, ok := FindUntoleratedTaint(taints, nil, hard)
	if !ok || got.Key != "b" {
		t.Fatalf("got %v %v, want b", got, ok)
	}
	if _, ok := FindUntoleratedTaint(taints, []Toleration{{Key: "b", Operator: TolerationOpExists}}, hard); ok {
		t.Fatal("tolerated taint reported")
	}
}

func TestNodeSelector(t *testing.T) {
	node := &Node{ObjectMeta: meta.ObjectMeta{Name: "n1", Labels: map[string]string{"zone": "a", "cores": "8"}}}
	req := func(k string, op NodeSelectorOperator, vs ...string) NodeSelectorRequirement {
		return NodeSelectorRequirement{Key: k, Operator: op, Values: vs}
	}
	tests := []struct {
		name string
		term NodeSelectorTerm
		want bool
	}{
		{"in", NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{req("zone", NodeSelectorOpIn, "a", "b")}}, true},
		{"not in", NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{req("zone", NodeSelectorOpNotIn, "a")}}, false},
		{"not in, label absent", NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{req("x", NodeSelectorOpNotIn, "a")}}, true},
		{"exists", NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{req("zone", NodeSelectorOpExists)}}, true},
		{"does not exist", NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{req("zone", NodeSelectorOpDoesNotExist)}}, false},
		{"gt", NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{req("cores", NodeSelectorOpGt, "4")}}, true},
		{"lt", NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{req("cores", NodeSelectorOpLt, "4")}}, false},
		{"field name", NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{req("metadata.name", NodeSelectorOpIn, "n1")}}, true},
		{"other field", NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{req("spec.x", NodeSelectorOpIn, "n1")}}, false},
		{"empty term", NodeSelectorTerm{}, false},
	}
	for _, tc := range tests {
		if got := tc.term.Matches(node); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	pod := &Pod{Spec: PodSpec{NodeSelector: map[string]string{"zone": "a"}}}
	if !RequiredNodeAffinityMatches(pod, node) {
		t.Error("node selector zone=a does not match")
	}
	pod.Spec.NodeSelector["zone"] = "b"
	if RequiredNodeAffinityMatches(pod, node) {
		t.Error("node selector zone=b matches")
	}
}

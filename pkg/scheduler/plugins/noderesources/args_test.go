package noderesources

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFitArgs(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		want    *ScoringStrategy
		wantErr bool
	}{
		{name: "nil is least allocated over cpu and memory", want: &ScoringStrategy{Type: LeastAllocated, Resources: defaultResources()}},
		{
			name: "weights default to 1",
			args: `{"scoringStrategy":{"type":"MostAllocated","resources":[{"name":"cpu"},{"name":"example.com/gpu","weight":5}]}}`,
			want: &ScoringStrategy{Type: MostAllocated, Resources: []ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "example.com/gpu", Weight: 5}}},
		},
		{
			name: "resources default when none given",
			args: `{"scoringStrategy":{"type":"MostAllocated"}}`,
			want: &ScoringStrategy{Type: MostAllocated, Resources: defaultResources()},
		},
		{name: "unknown field", args: `{"ignoredResource":["a"]}`, wantErr: true},
		{name: "unknown strategy field", args: `{"scoringStrategy":{"type":"MostAllocated","shape":[]}}`, wantErr: true},
		{name: "no type", args: `{"scoringStrategy":{"resources":[{"name":"cpu"}]}}`, wantErr: true},
		{name: "bad type", args: `{"scoringStrategy":{"type":"Random"}}`, wantErr: true},
		{name: "weight over 100", args: `{"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"cpu","weight":101}]}}`, wantErr: true},
		{name: "negative weight", args: `{"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"cpu","weight":-1}]}}`, wantErr: true},
		{
			name: "duplicate resource allowed, as upstream",
			args: `{"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"cpu"},{"name":"cpu","weight":2}]}}`,
			want: &ScoringStrategy{Type: LeastAllocated, Resources: []ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "cpu", Weight: 2}}},
		},
		{name: "group with slash", args: `{"ignoredResourceGroups":["example.com/gpu"]}`, wantErr: true},
		{name: "ratio without shape", args: `{"scoringStrategy":{"type":"RequestedToCapacityRatio"}}`, wantErr: true},
		{
			name:    "ratio shape not increasing",
			args:    `{"scoringStrategy":{"type":"RequestedToCapacityRatio","requestedToCapacityRatio":{"shape":[{"utilization":50,"score":1},{"utilization":50,"score":2}]}}}`,
			wantErr: true,
		},
		{
			name:    "ratio score over 10",
			args:    `{"scoringStrategy":{"type":"RequestedToCapacityRatio","requestedToCapacityRatio":{"shape":[{"utilization":50,"score":11}]}}}`,
			wantErr: true,
		},
		{
			name:    "ratio utilization over 100",
			args:    `{"scoringStrategy":{"type":"RequestedToCapacityRatio","requestedToCapacityRatio":{"shape":[{"utilization":101,"score":1}]}}}`,
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewFit(json.RawMessage(tt.args), nil)
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewFit error = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			got := &ScoringStrategy{Type: tt.want.Type, Resources: p.(*Fit).scorer.resources}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("strategy (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBalancedAllocationArgs(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		want    []ResourceSpec
		wantErr bool
	}{
		{name: "nil", want: defaultResources()},
		{name: "weight defaults", args: `{"resources":[{"name":"cpu"},{"name":"example.com/gpu"}]}`, want: []ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "example.com/gpu", Weight: 1}}},
		{name: "weight must be 1", args: `{"resources":[{"name":"cpu","weight":2}]}`, wantErr: true},
		{name: "duplicate", args: `{"resources":[{"name":"cpu"},{"name":"cpu"}]}`, wantErr: true},
		{name: "unknown field", args: `{"resource":[]}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewBalancedAllocation(json.RawMessage(tt.args), nil)
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewBalancedAllocation error = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, p.(*BalancedAllocation).scorer.resources); diff != "" {
				t.Errorf("resources (-want +got):\n%s", diff)
			}
		})
	}
}

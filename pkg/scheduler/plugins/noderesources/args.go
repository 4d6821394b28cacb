package noderesources

import (
	"errors"
	"fmt"
	"strings"

	corev1 "platform.io/client/api/core/v1"
)

// ScoringStrategyType names how NodeResourcesFit scores.
type ScoringStrategyType string

// The strategies, as upstream.
const (
	// LeastAllocated favours nodes with more room left (spreading).
	LeastAllocated ScoringStrategyType = "LeastAllocated"
	// MostAllocated favours fuller nodes (bin packing).
	MostAllocated ScoringStrategyType = "MostAllocated"
	// RequestedToCapacityRatio scores utilization by a piecewise-linear shape.
	RequestedToCapacityRatio ScoringStrategyType = "RequestedToCapacityRatio"
)

// ResourceSpec is a resource scored and its weight.
type ResourceSpec struct {
	Name   string `json:"name"`
	Weight int64  `json:"weight,omitempty"`
}

// UtilizationShapePoint is a point of the RequestedToCapacityRatio shape:
// utilization in percent (0-100) and the score there (0-10).
type UtilizationShapePoint struct {
	Utilization int32 `json:"utilization"`
	Score       int32 `json:"score"`
}

// RequestedToCapacityRatioParam is the shape of that strategy.
type RequestedToCapacityRatioParam struct {
	Shape []UtilizationShapePoint `json:"shape,omitempty"`
}

// ScoringStrategy says how Fit scores and over which resources.
type ScoringStrategy struct {
	Type                     ScoringStrategyType            `json:"type,omitempty"`
	Resources                []ResourceSpec                 `json:"resources,omitempty"`
	RequestedToCapacityRatio *RequestedToCapacityRatioParam `json:"requestedToCapacityRatio,omitempty"`
}

// FitArgs are NodeResourcesFit's arguments (upstream's NodeResourcesFitArgs).
type FitArgs struct {
	// IgnoredResources are extended resources Filter does not check.
	IgnoredResources []string `json:"ignoredResources,omitempty"`
	// IgnoredResourceGroups are domains ("example.com") whose extended
	// resources Filter does not check.
	IgnoredResourceGroups []string         `json:"ignoredResourceGroups,omitempty"`
	ScoringStrategy       *ScoringStrategy `json:"scoringStrategy,omitempty"`
}

// BalancedAllocationArgs are NodeResourcesBalancedAllocation's arguments.
type BalancedAllocationArgs struct {
	// Resources are the resources whose fractions are balanced; every
	// weight must be 1.
	Resources []ResourceSpec `json:"resources,omitempty"`
}

// maxCustomPriorityScore is the top score of a shape point.
const maxCustomPriorityScore = 10

func defaultResources() []ResourceSpec {
	return []ResourceSpec{{Name: string(corev1.ResourceCPU), Weight: 1}, {Name: string(corev1.ResourceMemory), Weight: 1}}
}

// Default fills what is unset: LeastAllocated over cpu and memory with
// weight 1; a resource without weight gets 1.
func (a *FitArgs) Default() {
	if a.ScoringStrategy == nil {
		a.ScoringStrategy = &ScoringStrategy{Type: LeastAllocated}
	}
	a.ScoringStrategy.Resources = defaultWeights(a.ScoringStrategy.Resources)
}

// Default fills cpu and memory when no resource is named, and weight 1.
func (a *BalancedAllocationArgs) Default() { a.Resources = defaultWeights(a.Resources) }

func defaultWeights(rs []ResourceSpec) []ResourceSpec {
	if len(rs) == 0 {
		return defaultResources()
	}
	for i := range rs {
		if rs[i].Weight == 0 {
			rs[i].Weight = 1
		}
	}
	return rs
}

// Validate checks defaulted args as upstream does.
func (a *FitArgs) Validate() error {
	var errs []error
	for i, r := range a.IgnoredResources {
		if r == "" {
			errs = append(errs, fmt.Errorf("ignoredResources[%d]: must not be empty", i))
		}
	}
	for i, g := range a.IgnoredResourceGroups {
		if g == "" || strings.Contains(g, "/") {
			errs = append(errs, fmt.Errorf("ignoredResourceGroups[%d]: %q: a resource group name must be non-empty and can't contain '/'", i, g))
		}
	}
	if s := a.ScoringStrategy; s != nil {
		errs = append(errs, validateStrategy(s)...)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s: invalid args: %w", FitName, err)
	}
	return nil
}

func validateStrategy(s *ScoringStrategy) []error {
	var errs []error
	switch s.Type {
	case LeastAllocated, MostAllocated:
	case RequestedToCapacityRatio:
		if s.RequestedToCapacityRatio == nil || len(s.RequestedToCapacityRatio.Shape) == 0 {
			errs = append(errs, errors.New("scoringStrategy.requestedToCapacityRatio.shape: required for RequestedToCapacityRatio"))
		} else {
			errs = append(errs, validateShape(s.RequestedToCapacityRatio.Shape)...)
		}
	default:
		errs = append(errs, fmt.Errorf("scoringStrategy.type: unsupported value %q (LeastAllocated, MostAllocated or RequestedToCapacityRatio)", s.Type))
	}
	return append(errs, validateResources("scoringStrategy.resources", s.Resources, false, func(w int64) bool { return w >= 1 && w <= 100 }, "in range [1, 100]")...)
}

func validateShape(shape []UtilizationShapePoint) []error {
	var errs []error
	for i, p := range shape {
		if p.Utilization < 0 || p.Utilization > 100 {
			errs = append(errs, fmt.Errorf("scoringStrategy.requestedToCapacityRatio.shape[%d].utilization: %d not in range [0, 100]", i, p.Utilization))
		}
		if i > 0 && p.Utilization <= shape[i-1].Utilization {
			errs = append(errs, fmt.Errorf("scoringStrategy.requestedToCapacityRatio.shape[%d].utilization: values must be sorted in increasing order", i))
		}
		if p.Score < 0 || p.Score > maxCustomPriorityScore {
			errs = append(errs, fmt.Errorf("scoringStrategy.requestedToCapacityRatio.shape[%d].score: %d not in range [0, %d]", i, p.Score, maxCustomPriorityScore))
		}
	}
	return errs
}

// validateResources checks names and weights; noDuplicates rejects a name
// given twice (upstream checks that for BalancedAllocation only).
func validateResources(path string, rs []ResourceSpec, noDuplicates bool, weightOK func(int64) bool, weightRule string) []error {
	var errs []error
	seen := map[string]bool{}
	for i, r := range rs {
		if r.Name == "" {
			errs = append(errs, fmt.Errorf("%s[%d].name: must not be empty", path, i))
		} else if noDuplicates && seen[r.Name] {
			errs = append(errs, fmt.Errorf("%s[%d].name: duplicate value %q", path, i, r.Name))
		}
		seen[r.Name] = true
		if !weightOK(r.Weight) {
			errs = append(errs, fmt.Errorf("%s[%d].weight: %d must be %s", path, i, r.Weight, weightRule))
		}
	}
	return errs
}

// Validate checks defaulted args: named, distinct resources, weights 1.
func (a *BalancedAllocationArgs) Validate() error {
	errs := validateResources("resources", a.Resources, true, func(w int64) bool { return w == 1 }, "1")
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s: invalid args: %w", BalancedAllocationName, err)
	}
	return nil
}

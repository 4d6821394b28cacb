package cel

import (
	"fmt"
	"math"

	"cel.dev/cel-go/common/cost"
)

// estimator gives the cost estimator the declared (or request-bounded)
// sizes of the strings, bytes, lists and maps a rule reads through self
// and oldSelf.
type estimator struct {
	root *node
}

var _ cost.Estimator = (*estimator)(nil)

func (e *estimator) EstimateSize(el cost.AstNode) *cost.SizeEstimate {
	path := el.Path()
	if len(path) == 0 || (path[0] != "self" && path[0] != "oldSelf") {
		return nil
	}
	n := e.root
	for _, p := range path[1:] {
		if n = n.child(p); n == nil {
			return nil
		}
	}
	switch n.kind {
	case kindString, kindBytes, kindList, kindMap, kindDyn:
		return &cost.SizeEstimate{Min: 0, Max: n.maxSize}
	}
	return nil
}

// EstimateCallCost leaves every function to cel-go's own estimates.
func (e *estimator) EstimateCallCost(function, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	return nil
}

// costMessage is upstream's refusal of an expensive rule.
func costMessage(what string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", what, factor)
}

func mulCap(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

func addCap(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

package cel

import (
	"fmt"
	"math"

	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/overloads"
)

// estimator gives the cost estimator the declared (or request-bounded)
// sizes of the strings, bytes, lists and maps a rule reads through self
// and oldSelf.
type estimator struct {
	root *node
}

var _ cost.Estimator = (*estimator)(nil)

func (e *estimator) EstimateSize(el cost.AstNode) *cost.SizeEstimate {
	if t := el.Type(); t != nil && t.TypeName() == quantityType.TypeName() {
		// A quantity compares in constant time.
		return &cost.SizeEstimate{Min: 1, Max: 1}
	}
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

// formattedSizes bound the strings the conversions to string return,
// which cel-go leaves unbounded: without them a messageExpression such as
// "'max is ' + string(self.max)" would be refused as too expensive.
var formattedSizes = map[string]uint64{
	overloads.IntToString:       20, // -9223372036854775808
	overloads.UintToString:      20,
	overloads.DoubleToString:    24, // -1.7976931348623157e+308
	overloads.BoolToString:      5,
	overloads.TimestampToString: 35, // RFC 3339 with nanoseconds and an offset
	overloads.DurationToString:  32,
}

// EstimateCallCost bounds the results of conversions to string, prices
// library.go's functions, and leaves the others to cel-go's estimates.
func (e *estimator) EstimateCallCost(function, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	if size, ok := formattedSizes[overloadID]; ok {
		return cost.NewCallEstimate(cost.FixedCostEstimate(1), &cost.SizeEstimate{Min: 1, Max: size})
	}
	if overloadID == overloads.OptionalValue && target != nil {
		// oldSelf.value() of an optionalOldSelf rule is as large as oldSelf.
		size := cost.EstimateSize(e, *target)
		return cost.NewCallEstimate(cost.FixedCostEstimate(1), &size)
	}
	if est := estimateURLCall(e, overloadID, target, args); est != nil {
		return est
	}
	return estimateLibraryCall(e, overloadID, target, args)
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

package cel

import (
	"math"
	"regexp"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/ext"
)

// baseEnv is the environment every rule compiles in: upstream's base
// options and the libraries listed in the package comment.
func baseEnv() (*cel.Env, error) {
	return cel.NewEnv(
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		ext.TwoVarComprehensions(),
		ext.Network(),
		listsLibrary(),
		regexLibrary(),
		quantityLibrary(),
		urlLibrary(),
	)
}

// The element types the lists functions take; these are constant tables.
var (
	comparableTypes = []*types.Type{types.IntType, types.UintType, types.DoubleType, types.BoolType,
		types.StringType, types.BytesType, types.DurationType, types.TimestampType}
	summableTypes = []*types.Type{types.IntType, types.UintType, types.DoubleType, types.DurationType}
	summableZeros = []ref.Val{types.Int(0), types.Uint(0), types.Double(0), types.Duration{}}
)

// listsLibrary is upstream's lists library: isSorted, sum, min, max,
// indexOf and lastIndexOf on lists.
func listsLibrary() cel.EnvOption {
	T := cel.TypeParamType("T")
	listT := cel.ListType(T)
	var isSorted, sum, minO, maxO []cel.FunctionOpt
	for _, t := range comparableTypes {
		name := t.String()
		isSorted = append(isSorted, cel.MemberOverload(listID(name, "is_sorted"),
			[]*types.Type{cel.ListType(t)}, types.BoolType, cel.UnaryBinding(listIsSorted)))
		minO = append(minO, cel.MemberOverload(listID(name, "min"),
			[]*types.Type{cel.ListType(t)}, t, cel.UnaryBinding(listExtreme(types.IntNegOne))))
		maxO = append(maxO, cel.MemberOverload(listID(name, "max"),
			[]*types.Type{cel.ListType(t)}, t, cel.UnaryBinding(listExtreme(types.IntOne))))
	}
	for i, t := range summableTypes {
		zero := summableZeros[i]
		sum = append(sum, cel.MemberOverload(listID(t.String(), "sum"),
			[]*types.Type{cel.ListType(t)}, t, cel.UnaryBinding(func(v ref.Val) ref.Val { return listSum(v, zero) })))
	}
	return cel.Lib(funcsLib{
		cel.Function("isSorted", isSorted...),
		cel.Function("sum", sum...),
		cel.Function("min", minO...),
		cel.Function("max", maxO...),
		cel.Function("indexOf", cel.MemberOverload(listID("", "index_of"), []*types.Type{listT, T}, types.IntType,
			cel.BinaryBinding(func(l, v ref.Val) ref.Val { return listIndex(l, v, false) }))),
		cel.Function("lastIndexOf", cel.MemberOverload(listID("", "last_index_of"), []*types.Type{listT, T}, types.IntType,
			cel.BinaryBinding(func(l, v ref.Val) ref.Val { return listIndex(l, v, true) }))),
	})
}

// regexLibrary is upstream's regex library: find and findAll.
func regexLibrary() cel.EnvOption {
	return cel.Lib(funcsLib{
		cel.Function("find", cel.MemberOverload(findID("string"),
			[]*types.Type{types.StringType, types.StringType}, types.StringType,
			cel.BinaryBinding(func(s, re ref.Val) ref.Val {
				r, err := regexp.Compile(string(re.(types.String)))
				if err != nil {
					return types.WrapErr(err)
				}
				return types.String(r.FindString(string(s.(types.String))))
			}))),
		cel.Function("findAll",
			cel.MemberOverload(findID("all_string"), []*types.Type{types.StringType, types.StringType},
				cel.ListType(types.StringType), cel.BinaryBinding(func(s, re ref.Val) ref.Val {
					return findAll(s, re, -1)
				})),
			cel.MemberOverload(findID("all_string_int"),
				[]*types.Type{types.StringType, types.StringType, types.IntType}, cel.ListType(types.StringType),
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					return findAll(args[0], args[1], int(args[2].(types.Int)))
				}))),
	})
}

func findAll(s, re ref.Val, n int) ref.Val {
	r, err := regexp.Compile(string(re.(types.String)))
	if err != nil {
		return types.WrapErr(err)
	}
	return types.NewStringList(types.DefaultTypeAdapter, r.FindAllString(string(s.(types.String)), n))
}

// funcsLib turns a list of function declarations into a library.
type funcsLib []cel.EnvOption

func (l funcsLib) CompileOptions() []cel.EnvOption     { return l }
func (l funcsLib) ProgramOptions() []cel.ProgramOption { return nil }

func listIsSorted(v ref.Val) ref.Val {
	l := v.(traits.Lister)
	var prev ref.Val
	for it := l.Iterator(); it.HasNext() == types.True; {
		cur := it.Next()
		if prev != nil {
			c, ok := prev.(traits.Comparer)
			if !ok {
				return types.NoSuchOverloadErr()
			}
			if cmp := c.Compare(cur); cmp == types.IntOne {
				return types.False
			} else if types.IsError(cmp) {
				return cmp
			}
		}
		prev = cur
	}
	return types.True
}

// listExtreme returns the least (want -1) or greatest (want 1) item.
func listExtreme(want types.Int) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		l := v.(traits.Lister)
		var best ref.Val
		for it := l.Iterator(); it.HasNext() == types.True; {
			cur := it.Next()
			if best == nil {
				best = cur
				continue
			}
			c, ok := cur.(traits.Comparer)
			if !ok {
				return types.NoSuchOverloadErr()
			}
			if cmp := c.Compare(best); cmp == want {
				best = cur
			} else if types.IsError(cmp) {
				return cmp
			}
		}
		if best == nil {
			return types.NewErr("%s called on empty list", map[types.Int]string{-1: "min", 1: "max"}[want])
		}
		return best
	}
}

func listSum(v ref.Val, zero ref.Val) ref.Val {
	acc := zero
	for it := v.(traits.Lister).Iterator(); it.HasNext() == types.True; {
		a, ok := acc.(traits.Adder)
		if !ok {
			return types.NoSuchOverloadErr()
		}
		if acc = a.Add(it.Next()); types.IsError(acc) {
			return acc
		}
	}
	return acc
}

func listIndex(v, x ref.Val, last bool) ref.Val {
	l := v.(traits.Lister)
	size := int64(l.Size().(types.Int))
	found := int64(-1)
	for i := int64(0); i < size; i++ {
		if l.Get(types.Int(i)).Equal(x) == types.True {
			found = i
			if !last {
				break
			}
		}
	}
	return types.Int(found)
}

// Costs of this file's functions, which cel-go would count as one unit
// each: the list functions walk their list, the regex functions scan
// their string once per pattern byte, as cel-go's matches.

// Overload IDs of this file's functions, apart from cel-go's.
const (
	listPrefix = "platform_list_"
	findPrefix = "platform_string_find_"
)

func listID(elem, fn string) string { return listPrefix + elem + "_" + fn }
func findID(args string) string     { return findPrefix + args }

// libraryOverloads are the IDs of this file's overloads.
func libraryOverloads() []string {
	ids := []string{listID("", "index_of"), listID("", "last_index_of"),
		findID("string"), findID("all_string"), findID("all_string_int")}
	for _, t := range comparableTypes {
		ids = append(ids, listID(t.String(), "is_sorted"), listID(t.String(), "min"), listID(t.String(), "max"))
	}
	for _, t := range summableTypes {
		ids = append(ids, listID(t.String(), "sum"))
	}
	return ids
}

// libraryCost reports whether an overload is one of this file's, and
// whether it is a regex function (else a list function).
func libraryCost(overloadID string) (known, regex bool) {
	switch {
	case strings.HasPrefix(overloadID, findPrefix):
		return true, true
	case strings.HasPrefix(overloadID, listPrefix):
		return true, false
	}
	return false, false
}

// estimateLibraryCall estimates a call of this file's functions.
func estimateLibraryCall(e cost.Estimator, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	known, regex := libraryCost(overloadID)
	if !known || target == nil {
		return nil
	}
	size := cost.EstimateSize(e, *target)
	if !regex {
		return cost.NewCallEstimate(cost.Estimate{Min: 1, Max: addCap(size.Max, 1)}, nil)
	}
	pattern := cost.UnknownSizeEstimate()
	if len(args) > 0 {
		pattern = cost.EstimateSize(e, args[0])
	}
	c := cost.Estimate{Min: 1, Max: regexCost(size.Max, pattern.Max)}
	return cost.NewCallEstimate(c, &cost.SizeEstimate{Min: 0, Max: size.Max})
}

func regexCost(text, pattern uint64) uint64 {
	f := (float64(text) + 1) * cost.StringTraversalCostFactor * float64(pattern) * cost.RegexStringLengthCostFactor
	if f >= math.MaxUint64 {
		return math.MaxUint64
	}
	return uint64(math.Ceil(f)) + 1
}

// libraryTrackers charge the actual cost of this file's functions.
func libraryTrackers() cel.ProgramOption {
	var opts []cost.TrackerOption
	list := func(args []ref.Val, _ ref.Val) *uint64 {
		c := cost.ActualSize(args[0]) + 1
		return &c
	}
	re := func(args []ref.Val, _ ref.Val) *uint64 {
		c := regexCost(cost.ActualSize(args[0]), cost.ActualSize(args[1]))
		return &c
	}
	for _, id := range libraryOverloads() {
		if _, regex := libraryCost(id); regex {
			opts = append(opts, cost.OverloadTracker(id, re))
		} else {
			opts = append(opts, cost.OverloadTracker(id, list))
		}
	}
	return cel.CostTrackerOptions(opts...)
}

package cel

import (
	"regexp"

	"cel.dev/cel-go/cel"
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
	)
}

// listsLibrary is upstream's lists library: isSorted, sum, min, max,
// indexOf and lastIndexOf on lists.
func listsLibrary() cel.EnvOption {
	T := cel.TypeParamType("T")
	listT := cel.ListType(T)
	comparable := []*types.Type{types.IntType, types.UintType, types.DoubleType, types.BoolType,
		types.StringType, types.BytesType, types.DurationType, types.TimestampType}
	summable := map[*types.Type]ref.Val{types.IntType: types.Int(0), types.UintType: types.Uint(0),
		types.DoubleType: types.Double(0), types.DurationType: types.Duration{}}
	var isSorted, sum, minO, maxO []cel.FunctionOpt
	for _, t := range comparable {
		name := t.String()
		isSorted = append(isSorted, cel.MemberOverload("list_"+name+"_is_sorted",
			[]*types.Type{cel.ListType(t)}, types.BoolType, cel.UnaryBinding(listIsSorted)))
		minO = append(minO, cel.MemberOverload("list_"+name+"_min",
			[]*types.Type{cel.ListType(t)}, t, cel.UnaryBinding(listExtreme(types.IntNegOne))))
		maxO = append(maxO, cel.MemberOverload("list_"+name+"_max",
			[]*types.Type{cel.ListType(t)}, t, cel.UnaryBinding(listExtreme(types.IntOne))))
	}
	for _, t := range []*types.Type{types.IntType, types.UintType, types.DoubleType, types.DurationType} {
		zero := summable[t]
		sum = append(sum, cel.MemberOverload("list_"+t.String()+"_sum",
			[]*types.Type{cel.ListType(t)}, t, cel.UnaryBinding(func(v ref.Val) ref.Val { return listSum(v, zero) })))
	}
	return cel.Lib(funcsLib{
		cel.Function("isSorted", isSorted...),
		cel.Function("sum", sum...),
		cel.Function("min", minO...),
		cel.Function("max", maxO...),
		cel.Function("indexOf", cel.MemberOverload("list_index_of", []*types.Type{listT, T}, types.IntType,
			cel.BinaryBinding(func(l, v ref.Val) ref.Val { return listIndex(l, v, false) }))),
		cel.Function("lastIndexOf", cel.MemberOverload("list_last_index_of", []*types.Type{listT, T}, types.IntType,
			cel.BinaryBinding(func(l, v ref.Val) ref.Val { return listIndex(l, v, true) }))),
	})
}

// regexLibrary is upstream's regex library: find and findAll.
func regexLibrary() cel.EnvOption {
	return cel.Lib(funcsLib{
		cel.Function("find", cel.MemberOverload("string_find_string",
			[]*types.Type{types.StringType, types.StringType}, types.StringType,
			cel.BinaryBinding(func(s, re ref.Val) ref.Val {
				r, err := regexp.Compile(string(re.(types.String)))
				if err != nil {
					return types.WrapErr(err)
				}
				return types.String(r.FindString(string(s.(types.String))))
			}))),
		cel.Function("findAll",
			cel.MemberOverload("string_find_all_string", []*types.Type{types.StringType, types.StringType},
				cel.ListType(types.StringType), cel.BinaryBinding(func(s, re ref.Val) ref.Val {
					return findAll(s, re, -1)
				})),
			cel.MemberOverload("string_find_all_string_int",
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

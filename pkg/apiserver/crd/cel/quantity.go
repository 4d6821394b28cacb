package cel

import (
	"fmt"
	"reflect"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"platform.io/client/api/resource"
)

// quantityType is the CEL type of a resource quantity ("100m", "1Gi").
var quantityType = cel.OpaqueType("platform.Quantity")

// quantityLibrary is upstream's quantity library: quantity, isQuantity,
// and on quantities isInteger, asInteger, asApproximateFloat, sign, add,
// sub, isGreaterThan, isLessThan and compareTo.
func quantityLibrary() cel.EnvOption {
	q := quantityType
	unary := func(id string, out *types.Type, fn func(resource.Quantity) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*types.Type{q}, out, cel.UnaryBinding(func(v ref.Val) ref.Val {
			return fn(v.(quantityVal).q)
		}))
	}
	binary := func(id string, arg, out *types.Type, fn func(a, b resource.Quantity) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*types.Type{q, arg}, out, cel.BinaryBinding(func(a, b ref.Val) ref.Val {
			other, ok := asQuantity(b)
			if !ok {
				return types.NoSuchOverloadErr()
			}
			return fn(a.(quantityVal).q, other)
		}))
	}
	cmp := func(want int) func(a, b resource.Quantity) ref.Val {
		return func(a, b resource.Quantity) ref.Val { return types.Bool(a.Cmp(b) == want) }
	}
	add := func(sign int) func(a, b resource.Quantity) ref.Val {
		return func(a, b resource.Quantity) ref.Val {
			sum := a.DeepCopy()
			if sign > 0 {
				sum.Add(b)
			} else {
				sum.Sub(b)
			}
			return quantityVal{sum}
		}
	}
	return cel.Lib(funcsLib{
		cel.Function("quantity", cel.Overload("platform_string_to_quantity", []*types.Type{types.StringType}, q,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				parsed, err := resource.ParseQuantity(string(s.(types.String)))
				if err != nil {
					return types.WrapErr(err)
				}
				return quantityVal{parsed}
			}))),
		cel.Function("isQuantity", cel.Overload("platform_is_quantity_string", []*types.Type{types.StringType}, types.BoolType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				_, err := resource.ParseQuantity(string(s.(types.String)))
				return types.Bool(err == nil)
			}))),
		cel.Function("isInteger", unary("platform_quantity_is_integer", types.BoolType, func(x resource.Quantity) ref.Val {
			_, ok := x.AsInt64()
			return types.Bool(ok)
		})),
		cel.Function("asInteger", unary("platform_quantity_as_integer", types.IntType, func(x resource.Quantity) ref.Val {
			i, ok := x.AsInt64()
			if !ok {
				return types.NewErr("cannot convert value to integer: %s is not a whole number in the int64 range", x.String())
			}
			return types.Int(i)
		})),
		cel.Function("asApproximateFloat", unary("platform_quantity_as_float", types.DoubleType, func(x resource.Quantity) ref.Val {
			return types.Double(x.AsApproximateFloat64())
		})),
		cel.Function("sign", unary("platform_quantity_sign", types.IntType, func(x resource.Quantity) ref.Val {
			return types.Int(x.Sign())
		})),
		cel.Function("add",
			binary("platform_quantity_add", q, q, add(1)),
			binary("platform_quantity_add_int", types.IntType, q, add(1))),
		cel.Function("sub",
			binary("platform_quantity_sub", q, q, add(-1)),
			binary("platform_quantity_sub_int", types.IntType, q, add(-1))),
		cel.Function("isGreaterThan", binary("platform_quantity_is_greater_than", q, types.BoolType, cmp(1))),
		cel.Function("isLessThan", binary("platform_quantity_is_less_than", q, types.BoolType, cmp(-1))),
		cel.Function("compareTo", binary("platform_quantity_compare_to", q, types.IntType,
			func(a, b resource.Quantity) ref.Val { return types.Int(a.Cmp(b)) })),
	})
}

// asQuantity reads a quantity or an integer argument.
func asQuantity(v ref.Val) (resource.Quantity, bool) {
	switch x := v.(type) {
	case quantityVal:
		return x.q, true
	case types.Int:
		return *resource.NewQuantity(int64(x), resource.DecimalSI), true
	}
	return resource.Quantity{}, false
}

// quantityVal is a quantity as a CEL value; quantities are equal when
// they compare equal ("1" == "1000m").
type quantityVal struct {
	q resource.Quantity
}

var _ ref.Val = quantityVal{}

func (v quantityVal) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(v.q).AssignableTo(t) {
		return v.q, nil
	}
	return nil, fmt.Errorf("cel: cannot convert a quantity to %v", t)
}

func (v quantityVal) ConvertToType(t ref.Type) ref.Val {
	switch {
	case t == types.TypeType:
		return quantityType
	case t.TypeName() == quantityType.TypeName():
		return v
	}
	return types.NewErr("type conversion error from quantity to %s", t.TypeName())
}

func (v quantityVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(quantityVal)
	return types.Bool(ok && v.q.Cmp(o.q) == 0)
}

func (v quantityVal) Type() ref.Type { return quantityType }
func (v quantityVal) Value() any     { return v.q }

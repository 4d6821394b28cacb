package cel

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/cost"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// urlType is the CEL type of a parsed URL.
var urlType = cel.OpaqueType("platform.URL")

// urlLibrary is upstream's URL library: url, isURL, and on URLs
// getScheme, getHost, getHostname, getPort, getEscapedPath and getQuery.
// As upstream, only absolute URIs and absolute paths parse.
func urlLibrary() cel.EnvOption {
	getter := func(name string, out *types.Type, fn func(*url.URL) ref.Val) cel.EnvOption {
		return cel.Function(name, cel.MemberOverload("platform_url_"+name, []*types.Type{urlType}, out,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return fn(v.(urlVal).u) })))
	}
	str := func(fn func(*url.URL) string) func(*url.URL) ref.Val {
		return func(u *url.URL) ref.Val { return types.String(fn(u)) }
	}
	return cel.Lib(funcsLib{
		cel.Function("url", cel.Overload("platform_string_to_url", []*types.Type{types.StringType}, urlType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				u, err := url.ParseRequestURI(string(s.(types.String)))
				if err != nil {
					return types.NewErr("URL parse error during conversion from string: %v", err)
				}
				return urlVal{u}
			}))),
		cel.Function("isURL", cel.Overload("platform_is_url_string", []*types.Type{types.StringType}, types.BoolType,
			cel.UnaryBinding(func(s ref.Val) ref.Val {
				_, err := url.ParseRequestURI(string(s.(types.String)))
				return types.Bool(err == nil)
			}))),
		getter("getScheme", types.StringType, str(func(u *url.URL) string { return u.Scheme })),
		getter("getHost", types.StringType, str(func(u *url.URL) string { return u.Host })),
		getter("getHostname", types.StringType, str((*url.URL).Hostname)),
		getter("getPort", types.StringType, str((*url.URL).Port)),
		getter("getEscapedPath", types.StringType, str((*url.URL).EscapedPath)),
		getter("getQuery", types.NewMapType(types.StringType, types.NewListType(types.StringType)),
			func(u *url.URL) ref.Val {
				q := map[string][]string(u.Query())
				return types.NewStringInterfaceMap(types.DefaultTypeAdapter, toAnyMap(q))
			}),
	})
}

// estimateURLCall bounds what url and its getters return by the size of
// the parsed string; nil for other functions.
func estimateURLCall(e cost.Estimator, overloadID string, target *cost.AstNode, args []cost.AstNode) *cost.CallEstimate {
	switch {
	case overloadID == "platform_string_to_url" && len(args) == 1:
		size := cost.EstimateSize(e, args[0])
		return cost.NewCallEstimate(cost.Estimate{Min: 1, Max: addCap(size.Max/10, 1)}, &size)
	case strings.HasPrefix(overloadID, "platform_url_") && target != nil:
		size := cost.EstimateSize(e, *target)
		return cost.NewCallEstimate(cost.FixedCostEstimate(1), &cost.SizeEstimate{Min: 0, Max: size.Max})
	}
	return nil
}

func toAnyMap(q map[string][]string) map[string]any {
	out := make(map[string]any, len(q))
	for k, v := range q {
		out[k] = v
	}
	return out
}

// urlVal is a parsed URL as a CEL value.
type urlVal struct {
	u *url.URL
}

var _ ref.Val = urlVal{}

func (v urlVal) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(v.u).AssignableTo(t) {
		return v.u, nil
	}
	return nil, fmt.Errorf("cel: cannot convert a URL to %v", t)
}

func (v urlVal) ConvertToType(t ref.Type) ref.Val {
	switch {
	case t == types.TypeType:
		return urlType
	case t == types.StringType:
		return types.String(v.u.String())
	case t.TypeName() == urlType.TypeName():
		return v
	}
	return types.NewErr("type conversion error from URL to %s", t.TypeName())
}

func (v urlVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(urlVal)
	return types.Bool(ok && v.u.String() == o.u.String())
}

func (v urlVal) Type() ref.Type { return urlType }
func (v urlVal) Value() any     { return v.u }

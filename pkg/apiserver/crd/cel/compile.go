package cel

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"

	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Upstream's limits, the defaults of Options.
const (
	DefaultPerCallLimit   = 1_000_000       // runtime cost of one rule evaluation
	DefaultRuntimeBudget  = 10_000_000      // runtime cost of all rules of one Validate call
	DefaultRuleCostLimit  = 10_000_000      // estimated cost of one rule over all its nodes
	DefaultTotalCostLimit = 100_000_000     // estimated cost of all rules of a schema
	DefaultMaxRequest     = 3 * 1024 * 1024 // bytes of a request, bounding undeclared sizes
	checkFrequency        = 100             // comprehension steps between context checks
	maxMessageBytes       = 5 * 1024        // longest messageExpression result used
)

// Options are the cost limits; a zero field takes its default.
type Options struct {
	PerCallLimit   uint64
	RuntimeBudget  uint64
	RuleCostLimit  uint64
	TotalCostLimit uint64
	MaxRequest     uint64
}

func (o Options) complete() Options {
	def := func(v *uint64, d uint64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.PerCallLimit, DefaultPerCallLimit)
	def(&o.RuntimeBudget, DefaultRuntimeBudget)
	def(&o.RuleCostLimit, DefaultRuleCostLimit)
	def(&o.TotalCostLimit, DefaultTotalCostLimit)
	def(&o.MaxRequest, DefaultMaxRequest)
	return o
}

// The reasons a rule may declare.
var reasons = map[string]field.Type{
	string(field.TypeInvalid):   field.TypeInvalid,
	string(field.TypeForbidden): field.TypeForbidden,
	string(field.TypeRequired):  field.TypeRequired,
	string(field.TypeDuplicate): field.TypeDuplicate,
}

// rule is one compiled x-kubernetes-validations entry.
type rule struct {
	src         structural.ValidationRule
	prg         cel.Program
	msgPrg      cel.Program
	transition  bool // mentions oldSelf
	optionalOld bool
	reason      field.Type
	fieldPath   []pathStep
}

// Validator evaluates the compiled rules of one schema.
type Validator struct {
	root  *node
	opts  Options
	rules int
	// Cost is the estimated cost of all rules, as checked against
	// Options.TotalCostLimit.
	Cost uint64
}

// compiler holds the state of one Compile call.
type compiler struct {
	opts  Options
	env   *cel.Env
	errs  field.ErrorList
	rules int
	cost  uint64
	// envs caches each node's environment; the key's bool is
	// optionalOldSelf.
	envs     map[envKey]*cel.Env
	trackers cel.ProgramOption
}

type envKey struct {
	n           *node
	optionalOld bool
}

// Compile compiles every rule of the schema tree rooted at s (the
// openAPIV3Schema of a custom resource version, found at fld). Errors are
// reported at each rule's path; the Validator is nil when there are any.
func Compile(s *structural.Schema, fld *field.Path, opts Options) (*Validator, field.ErrorList) {
	opts = opts.complete()
	if !anyRules(s) {
		// Most schemas have no rules: skip building the environment.
		return &Validator{opts: opts}, nil
	}
	b := newBuilder(opts.MaxRequest)
	// Type names are not identifiers, so no expression can name one.
	root := b.build(s, "object:self", true)
	base, err := baseEnv()
	if err == nil {
		base, err = base.Extend(cel.CustomTypeProvider(&provider{Provider: base.CELTypeProvider(), objects: b.objects}))
	}
	if err != nil {
		return nil, field.ErrorList{internalError(fld, fmt.Errorf("cel: environment: %w", err))}
	}
	c := &compiler{opts: opts, env: base, envs: map[envKey]*cel.Env{}, trackers: libraryTrackers()}
	c.walk(root, fld, 1, true)
	if c.cost > opts.TotalCostLimit {
		c.errs = append(c.errs, field.Forbidden(fld, costMessage(
			"x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", c.cost, opts.TotalCostLimit)))
	}
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return &Validator{root: root, opts: opts, rules: c.rules, Cost: c.cost}, nil
}

// walk compiles the rules of n and its descendants and reports whether
// there are any. cardinality is how many times n's rules can run per
// object; correlatable is false below lists whose items have no old
// value (atomic and set lists).
func (c *compiler) walk(n *node, fld *field.Path, cardinality uint64, correlatable bool) bool {
	if n.schema == nil {
		return false
	}
	// A request cannot hold more values of n than fit in its bytes, which
	// bounds the product of unbounded ancestors.
	if fit := c.opts.MaxRequest / (n.minSize + 1); fit < cardinality {
		cardinality = fit
	}
	for i := range n.schema.Validations {
		if r := c.compileRule(n, n.schema.Validations[i], fld.Child("x-kubernetes-validations").Index(i), cardinality, correlatable); r != nil {
			n.rules = append(n.rules, r)
			c.rules++
		}
	}
	n.hasRules = len(n.rules) > 0
	switch n.kind {
	case kindObject:
		for _, prop := range slices.Sorted(maps.Keys(n.props)) {
			if n.schema.Properties[prop] != nil &&
				c.walk(n.props[prop], fld.Child("properties").Key(prop), cardinality, correlatable) {
				n.ruleProps = append(n.ruleProps, prop)
				n.hasRules = true
			}
		}
	case kindMap:
		n.hasRules = c.walk(n.elem, fld.Child("additionalProperties"), mulCap(cardinality, n.maxSize), correlatable) || n.hasRules
	case kindList:
		n.hasRules = c.walk(n.elem, fld.Child("items"), mulCap(cardinality, n.maxSize),
			correlatable && n.listType == "map") || n.hasRules
	}
	return n.hasRules
}

func (c *compiler) compileRule(n *node, src structural.ValidationRule, fld *field.Path, cardinality uint64, correlatable bool) *rule {
	r := &rule{src: src, reason: field.TypeInvalid}
	errs := len(c.errs)
	if src.Reason != nil {
		t, ok := reasons[*src.Reason]
		if !ok {
			c.errs = append(c.errs, field.NotSupported(fld.Child("reason"), *src.Reason,
				[]string{"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"}))
		}
		r.reason = t
	}
	if src.Message != "" && strings.TrimSpace(src.Message) == "" {
		c.errs = append(c.errs, field.Invalid(fld.Child("message"), src.Message, "message must be non-empty if specified"))
	} else if strings.ContainsAny(src.Message, "\r\n") {
		c.errs = append(c.errs, field.Invalid(fld.Child("message"), src.Message, "message must not contain line breaks"))
	}
	if src.MessageExpression != "" && strings.TrimSpace(src.MessageExpression) == "" {
		c.errs = append(c.errs, field.Required(fld.Child("messageExpression"), "messageExpression must be non-empty if specified"))
	}
	if src.FieldPath != "" {
		steps, err := parseFieldPath(src.FieldPath, n)
		if err != nil {
			c.errs = append(c.errs, field.Invalid(fld.Child("fieldPath"), src.FieldPath, err.Error()))
		}
		r.fieldPath = steps
	}
	if strings.TrimSpace(src.Rule) == "" {
		c.errs = append(c.errs, field.Required(fld.Child("rule"), "rule is not specified"))
		return nil
	}
	env, err := c.nodeEnv(n, src.OptionalOldSelf != nil && *src.OptionalOldSelf)
	if err != nil {
		c.errs = append(c.errs, internalError(fld.Child("rule"), err))
		return nil
	}
	prg, transition, cost, ok := c.compileExpr(env, n, src.Rule, types.BoolType, "rule", fld.Child("rule"), cardinality)
	r.prg, r.transition = prg, transition
	c.cost = addCap(c.cost, cost)
	if ok && transition && !correlatable {
		c.errs = append(c.errs, field.Invalid(fld.Child("rule"), src.Rule,
			"oldSelf cannot be used on the uncorrelatable portion of the schema within an atomic or set list"))
	}
	if src.OptionalOldSelf != nil && *src.OptionalOldSelf {
		r.optionalOld = true
		if ok && !transition {
			c.errs = append(c.errs, field.Invalid(fld.Child("optionalOldSelf"), true,
				"may not be set to true for non-transition rules"))
		}
	}
	if strings.TrimSpace(src.MessageExpression) != "" {
		mprg, _, mcost, _ := c.compileExpr(env, n, src.MessageExpression, types.StringType,
			"messageExpression", fld.Child("messageExpression"), cardinality)
		r.msgPrg = mprg
		c.cost = addCap(c.cost, mcost)
	}
	if len(c.errs) > errs {
		return nil
	}
	return r
}

// nodeEnv declares self and oldSelf with the node's type; oldSelf is
// optional for optionalOldSelf rules.
func (c *compiler) nodeEnv(n *node, optionalOld bool) (*cel.Env, error) {
	if env, ok := c.envs[envKey{n, optionalOld}]; ok {
		return env, nil
	}
	old := n.typ
	if optionalOld {
		old = types.NewOptionalType(n.typ)
	}
	env, err := c.env.Extend(cel.Variable("self", n.typ), cel.Variable("oldSelf", old))
	if err != nil {
		return nil, fmt.Errorf("cel: declaring self: %w", err)
	}
	c.envs[envKey{n, optionalOld}] = env
	return env, nil
}

// compileExpr compiles one expression of the given result type and
// checks its estimated cost times cardinality against the per-rule limit.
func (c *compiler) compileExpr(env *cel.Env, n *node, expr string, want *types.Type, what string,
	fld *field.Path, cardinality uint64) (prg cel.Program, usesOld bool, total uint64, ok bool) {
	ast, iss := env.Compile(expr)
	if iss != nil && iss.Err() != nil {
		c.errs = append(c.errs, field.Invalid(fld, expr, "compilation failed: "+iss.Err().Error()))
		return nil, false, 0, false
	}
	if !ast.OutputType().IsExactType(want) {
		c.errs = append(c.errs, field.Invalid(fld, expr,
			fmt.Sprintf("%s must evaluate to %s, not %s", what, want, ast.OutputType())))
		return nil, false, 0, false
	}
	usesOld = mentions(ast, "oldSelf")
	est, err := env.EstimateCost(ast, &estimator{root: n})
	if err != nil {
		c.errs = append(c.errs, internalError(fld, fmt.Errorf("cel: estimating cost: %w", err)))
		return nil, false, 0, false
	}
	total = mulCap(est.Max, cardinality)
	if total > c.opts.RuleCostLimit {
		c.errs = append(c.errs, field.Forbidden(fld, costMessage("estimated "+what+" cost", total, c.opts.RuleCostLimit)))
		return nil, usesOld, total, false
	}
	prg, err = env.Program(ast,
		cel.CostLimit(c.opts.PerCallLimit),
		cel.InterruptCheckFrequency(checkFrequency),
		c.trackers,
		cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost))
	if err != nil {
		c.errs = append(c.errs, field.Invalid(fld, expr, "program construction failed: "+err.Error()))
		return nil, usesOld, total, false
	}
	return prg, usesOld, total, true
}

// mentions reports whether the checked expression refers to variable name.
func mentions(a *cel.Ast, name string) bool {
	for _, ref := range a.NativeRep().ReferenceMap() {
		if ref.Name == name && ref.Value == nil {
			return true
		}
	}
	return false
}

func internalError(fld *field.Path, err error) *field.Error {
	return &field.Error{Type: field.TypeInternal, Field: fld.String(), Detail: err.Error()}
}

// anyRules reports whether the tree under s has x-kubernetes-validations.
func anyRules(s *structural.Schema) bool {
	if s == nil {
		return false
	}
	if len(s.Validations) > 0 || anyRules(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && anyRules(s.AdditionalProperties.Schema) {
		return true
	}
	for _, p := range s.Properties {
		if anyRules(p) {
			return true
		}
	}
	return false
}

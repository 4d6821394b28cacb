package cel

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// Validate evaluates every rule at every node of obj it applies to, with
// old (nil on create) correlated to obj by property, map key and
// list-map key; transition rules run only where the old value exists
// (or with optionalOldSelf), and other rules are skipped where the value
// equals its old value (upstream's ratcheting, so a rule added to a CRD
// does not block updates of objects that broke it and leave the value
// alone). The rules of one call share
// Options.RuntimeBudget; one evaluation may cost Options.PerCallLimit;
// evaluation stops when ctx is done. Validate is safe for concurrent use.
func (v *Validator) Validate(ctx context.Context, fld *field.Path, obj, old map[string]any) field.ErrorList {
	if v == nil || v.rules == 0 || obj == nil {
		return nil
	}
	r := &run{ctx: ctx, remaining: v.opts.RuntimeBudget, perCall: v.opts.PerCallLimit}
	var o any
	if old != nil {
		o = old
	}
	r.walk(v.root, fld, obj, o, false)
	return r.errs
}

// run is the state of one Validate call.
type run struct {
	ctx       context.Context
	remaining uint64
	perCall   uint64
	errs      field.ErrorList
	stopped   bool
}

// walk validates val at n. same is true when an ancestor equals its old
// value, which makes val equal to old too.
func (r *run) walk(n *node, fld *field.Path, val, old any, same bool) {
	if val == nil || r.stopped || !n.hasRules {
		return
	}
	same = same || (old != nil && reflect.DeepEqual(val, old))
	for _, rl := range n.rules {
		if same && !rl.transition {
			// Ratcheting, as upstream: a value left as it was is not
			// refused for rules it already broke; transition rules run.
			continue
		}
		if r.eval(n, rl, fld, val, old); r.stopped {
			return
		}
	}
	switch n.kind {
	case kindObject:
		m, _ := val.(map[string]any)
		om, _ := old.(map[string]any)
		for _, prop := range n.ruleProps {
			if cv := m[prop]; cv != nil {
				r.walk(n.props[prop], fld.Child(prop), cv, om[prop], same)
			}
		}
	case kindMap:
		m, _ := val.(map[string]any)
		om, _ := old.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			r.walk(n.elem, fld.Key(k), m[k], om[k], same)
		}
	case kindList:
		l, _ := val.([]any)
		var oldByKey map[string]any
		if ol, ok := old.([]any); ok && n.listType == "map" && len(n.mapKeys) > 0 {
			oldByKey = make(map[string]any, len(ol))
			for _, item := range ol {
				oldByKey[listMapKey(item, n.mapKeys)] = item
			}
		}
		for i, item := range l {
			var oi any
			if oldByKey != nil {
				oi = oldByKey[listMapKey(item, n.mapKeys)]
			}
			r.walk(n.elem, fld.Index(i), item, oi, same && oi != nil)
		}
	}
}

// listMapKey identifies an item of a list-type map list by its key fields.
func listMapKey(item any, keys []string) string {
	m, _ := item.(map[string]any)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%T:%v\x00", m[k], m[k])
	}
	return b.String()
}

// eval runs one rule at one node.
func (r *run) eval(n *node, rl *rule, fld *field.Path, val, old any) {
	if rl.transition && old == nil && !rl.optionalOld {
		return
	}
	act := &activation{self: toVal(val, n)}
	if rl.transition {
		switch {
		case !rl.optionalOld:
			act.old = toVal(old, n)
		case old == nil:
			act.old = types.OptionalNone
		default:
			act.old = types.OptionalOf(toVal(old, n))
		}
	}
	out, det, err := rl.prg.ContextEval(r.ctx, act)
	if !r.charge(det, err, fld, n) {
		return
	}
	switch {
	case r.ctx.Err() != nil:
		r.errs = append(r.errs, field.Invalid(fld, n.schemaType(),
			fmt.Sprintf("validation interrupted: %v; no further validation rules were run", r.ctx.Err())))
		r.stopped = true
	case isCostLimit(err):
		r.errs = append(r.errs, field.Invalid(fld, n.schemaType(),
			"call cost exceeds limit for rule: "+ruleString(rl.src.Rule)))
	case err != nil:
		r.errs = append(r.errs, field.Invalid(fld, n.schemaType(), "rule evaluation error: "+err.Error()))
	case out != types.True:
		r.errs = append(r.errs, r.failure(n, rl, fld, val, act))
	}
}

// charge takes an evaluation's cost from the budget and reports whether
// evaluation may go on.
func (r *run) charge(det *cel.EvalDetails, err error, fld *field.Path, n *node) bool {
	spent := uint64(0)
	if det != nil && det.ActualCost() != nil {
		spent = *det.ActualCost()
	}
	if isCostLimit(err) && spent < r.perCall {
		spent = r.perCall
	}
	if spent > r.remaining {
		r.remaining = 0
		r.stopped = true
		r.errs = append(r.errs, field.Invalid(fld, n.schemaType(),
			"validation failed due to running out of cost budget, no further validation rules will be run"))
		return false
	}
	r.remaining -= spent
	return true
}

// failure is the error of a rule that evaluated to false.
func (r *run) failure(n *node, rl *rule, fld *field.Path, val any, act *activation) *field.Error {
	msg := ruleMessage(rl)
	if rl.msgPrg != nil {
		out, det, err := rl.msgPrg.ContextEval(r.ctx, act)
		if r.charge(det, err, fld, n) && err == nil {
			if s, ok := out.Value().(string); ok && usableMessage(s) {
				msg = s
			}
		}
	}
	fld = at(fld, rl.fieldPath)
	switch rl.reason {
	case field.TypeForbidden:
		return field.Forbidden(fld, msg)
	case field.TypeRequired:
		return field.Required(fld, msg)
	case field.TypeDuplicate:
		// Upstream reports the value and drops the message here.
		return field.Duplicate(fld, n.schemaType())
	}
	return field.Invalid(fld, n.schemaType(), msg)
}

// usableMessage is upstream's test of a messageExpression result: not
// blank, one line, at most 5 KiB; otherwise the static message is used.
func usableMessage(s string) bool {
	return strings.TrimSpace(s) != "" && !strings.ContainsAny(s, "\r\n") && len(s) <= maxMessageBytes
}

func ruleMessage(rl *rule) string {
	if m := strings.TrimSpace(rl.src.Message); m != "" {
		return m
	}
	return "failed rule: " + ruleString(rl.src.Rule)
}

func ruleString(rule string) string {
	return strings.Join(strings.Fields(rule), " ")
}

func isCostLimit(err error) bool {
	var ce interpreter.EvalCancelledError
	return errors.As(err, &ce) && ce.Cause == interpreter.CostLimitExceeded
}

// schemaType is the bad value upstream reports for a failed rule: the
// type of its schema node.
func (n *node) schemaType() string {
	if n.schema == nil {
		return ""
	}
	return n.schema.Type
}

// activation resolves self and oldSelf.
type activation struct {
	self, old ref.Val
}

var _ interpreter.Activation = (*activation)(nil)

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "self":
		return a.self, true
	case "oldSelf":
		return a.old, a.old != nil
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

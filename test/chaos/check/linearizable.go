package check

import (
	"fmt"
	"math"
	"net/http"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// keyState is the model of one key: absent, or present with a value and
// its resourceVersion (0 while no observation has told it: the value of
// a write whose outcome was unknown).
type keyState struct {
	present bool
	value   string
	rv      int64
}

// keyInput is an operation on one key as the model sees it; a list
// becomes a Get of each key.
type keyInput struct {
	kind     Kind
	value    string
	expectRV int64
}

// keyOutput is what the client learnt.
type keyOutput struct {
	outcome Outcome
	found   bool
	obj     Object
}

// keyModel is the porcupine model of one ConfigMap. Every outcome a
// client may see is a step: Failed writes are definite (the server
// refused: create found the key, replace found another version or no
// key, delete found no key), and Unknown writes either take effect or not:
// the step applies them when they can apply, and porcupine may place
// them where they were no-ops (after every other operation, at worst,
// since their return time is unbounded).
var keyModel = porcupine.Model{
	Init: func() any { return keyState{} },
	Step: func(st, in, out any) (bool, any) {
		return step(st.(keyState), in.(keyInput), out.(keyOutput))
	},
	DescribeOperation: func(in, out any) string {
		i, o := in.(keyInput), out.(keyOutput)
		s := i.kind.String()
		switch i.kind {
		case Create:
			s += " " + i.value
		case Replace:
			s += fmt.Sprintf(" %s if rv=%d", i.value, i.expectRV)
		}
		s += " -> " + o.outcome.String()
		if o.outcome == OK && i.kind != Delete {
			if i.kind == Get && !o.found {
				s += " absent"
			} else {
				s += fmt.Sprintf(" %s@%d", o.obj.Value, o.obj.RV)
			}
		}
		return s
	},
	DescribeState: func(st any) string {
		s := st.(keyState)
		if !s.present {
			return "absent"
		}
		return fmt.Sprintf("%s@%d", s.value, s.rv)
	},
}

func step(s keyState, in keyInput, out keyOutput) (bool, keyState) {
	// rvMatches: an unknown resourceVersion matches any precondition.
	rvMatches := s.present && (s.rv == in.expectRV || s.rv == 0)
	switch in.kind {
	case Get:
		if !out.found {
			return !s.present, s
		}
		if !s.present || s.value != out.obj.Value || (s.rv != 0 && s.rv != out.obj.RV) {
			return false, s
		}
		s.rv = out.obj.RV
		return true, s
	case Create:
		switch out.outcome {
		case OK:
			return !s.present, keyState{present: true, value: in.value, rv: out.obj.RV}
		case Failed:
			return s.present, s
		}
		if !s.present {
			return true, keyState{present: true, value: in.value}
		}
		return true, s
	case Replace:
		switch out.outcome {
		case OK:
			return rvMatches, keyState{present: true, value: in.value, rv: out.obj.RV}
		case Failed:
			return !s.present || s.rv != in.expectRV || s.rv == 0, s
		}
		if s.present && s.rv == in.expectRV {
			return true, keyState{present: true, value: in.value}
		}
		return true, s
	case Delete:
		switch out.outcome {
		case OK:
			return s.present, keyState{}
		case Failed:
			return !s.present, s
		}
		return true, keyState{}
	}
	return false, s
}

// checkLinearizable runs porcupine on each key's operations. A list is a
// read of every key. An Unknown write whose value was observed anywhere
// took effect: it becomes OK with the observed resourceVersion, and
// returns at the earliest observation (it may have happened after the
// client gave up, as when a stopped server resumes). An Unknown write
// never observed may have happened at any time after its call. Reads that
// got no answer say nothing and are left out, as are writes refused for
// another reason than the key's state (404, 409): they had no effect and
// say nothing.
func checkLinearizable(h History, ix *index, timeout time.Duration) []Anomaly {
	perKey := map[string][]porcupine.Operation{}
	add := func(key string, op Op, in keyInput, out keyOutput) {
		perKey[key] = append(perKey[key], porcupine.Operation{ClientId: op.Client, Input: in, Output: out, Call: op.Call, Return: op.Return})
	}
	var anomalies []Anomaly
	for _, op := range h.Ops {
		switch op.Kind {
		case Get:
			if op.Outcome == OK {
				add(op.Key, op, keyInput{kind: Get}, keyOutput{outcome: OK, found: op.Found, obj: op.Obj})
			}
		case List:
			if op.Outcome != OK {
				continue
			}
			for _, k := range h.Keys {
				obj, found := op.Items[k]
				add(k, op, keyInput{kind: Get}, keyOutput{outcome: OK, found: found, obj: obj})
			}
		case Create, Replace, Delete:
			if op.Outcome == Failed && op.Code != http.StatusNotFound && op.Code != http.StatusConflict {
				// Refused for a reason that says nothing of the key.
				continue
			}
			in := keyInput{kind: op.Kind, value: op.Value, expectRV: op.ExpectRV}
			out := keyOutput{outcome: op.Outcome, obj: op.Obj}
			if op.Kind != Delete {
				if seen, ok := ix.seen[op.Value]; ok && seen < op.Call {
					anomalies = append(anomalies, Anomaly{Check: "linearizability",
						Detail: fmt.Sprintf("value %q observed at %.3fs, before its write was sent: %v", op.Value, float64(seen)/1e9, op)})
				}
			}
			if op.Outcome == Unknown {
				op.Return = math.MaxInt64
				if rv, ok := ix.rv[op.Value]; ok && op.Kind != Delete {
					out = keyOutput{outcome: OK, obj: Object{Value: op.Value, RV: rv}}
					op.Return = max(ix.seen[op.Value], op.Call+1)
				}
			}
			add(op.Key, op, in, out)
		}
	}
	keys := make([]string, 0, len(perKey))
	for k := range perKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		res, info := porcupine.CheckOperationsVerbose(keyModel, perKey[k], timeout)
		switch res {
		case porcupine.Ok:
		case porcupine.Unknown:
			anomalies = append(anomalies, Anomaly{Check: "linearizability",
				Detail: fmt.Sprintf("key %s: not shown linearizable within %v (%d operations)", k, timeout, len(perKey[k]))})
		default:
			anomalies = append(anomalies, Anomaly{Check: "linearizability",
				Detail: fmt.Sprintf("key %s: %d operations are not linearizable; %s", k, len(perKey[k]), describeFailure(perKey[k], info))})
		}
	}
	return anomalies
}

// describeFailure names the longest linearizable prefix porcupine found
// and the operations that could not follow it.
func describeFailure(ops []porcupine.Operation, info porcupine.LinearizationInfo) string {
	partials := info.PartialLinearizations()
	if len(partials) == 0 || len(partials[0]) == 0 {
		return "no operation could be linearized first"
	}
	longest := partials[0][0]
	for _, p := range partials[0] {
		if len(p) > len(longest) {
			longest = p
		}
	}
	done := map[int]bool{}
	state := keyModel.Init()
	var tail []string
	for i, idx := range longest {
		done[idx] = true
		_, state = keyModel.Step(state, ops[idx].Input, ops[idx].Output)
		if i >= len(longest)-3 {
			tail = append(tail, keyModel.DescribeOperation(ops[idx].Input, ops[idx].Output))
		}
	}
	var stuck []string
	var lastCall int64 = math.MaxInt64
	for i, op := range ops {
		if !done[i] && op.Return < lastCall {
			lastCall = op.Return
		}
	}
	for i, op := range ops {
		if !done[i] && op.Call <= lastCall && len(stuck) < 5 {
			stuck = append(stuck, fmt.Sprintf("client %d [%.3fs,%.3fs] %s", op.ClientId, float64(op.Call)/1e9, float64(op.Return)/1e9,
				keyModel.DescribeOperation(op.Input, op.Output)))
		}
	}
	return fmt.Sprintf("longest linearizable prefix of %d ends with %v in state %s; none of these can come next: %v",
		len(longest), tail, keyModel.DescribeState(state), stuck)
}

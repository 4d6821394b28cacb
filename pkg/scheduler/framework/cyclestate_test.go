package framework

import (
	"errors"
	"testing"
)

type intState int

func (s intState) Clone() StateData { return s }

type strState string

func (s strState) Clone() StateData { return s }

func TestReadState(t *testing.T) {
	cs := NewCycleState()
	cs.Write("k", intState(3))
	if got, err := ReadState[intState](cs, "k"); err != nil || got != 3 {
		t.Errorf("ReadState = %v, %v; want 3, nil", got, err)
	}
	if _, err := ReadState[intState](cs, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadState of a missing key = %v, want ErrNotFound", err)
	}
	if got, err := ReadState[strState](cs, "k"); err == nil || errors.Is(err, ErrNotFound) || got != "" {
		t.Errorf("ReadState of another type = %q, %v; want the zero value and a type error", got, err)
	}
}

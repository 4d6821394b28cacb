package controller

import (
	"fmt"

	"platform.io/platform/pkg/component/run"
)

// Register returns the Descriptor of the loop name whose flags are O: the
// controller manager builds them with newOptions, and hands them back to
// newLoop as O, checked once here rather than in every loop.
func Register[O Options, R run.Runnable](name string, newOptions func() O, newLoop func(Context, O) (R, error)) Descriptor {
	return Descriptor{
		Name:       name,
		NewOptions: func() Options { return newOptions() },
		New: func(c Context, opts Options) (run.Runnable, error) {
			o, ok := opts.(O)
			if !ok {
				return nil, fmt.Errorf("%s: options of type %T, want %T", name, opts, *new(O))
			}
			loop, err := newLoop(c, o)
			if err != nil {
				// Not loop: an R that is a nil pointer would make a
				// non-nil Runnable.
				return nil, err
			}
			return loop, nil
		},
	}
}

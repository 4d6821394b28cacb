package podcontrol

import (
	"fmt"

	"platform.io/client/codec/protobuf"
)

// Message is a pointer to an API struct with a protobuf form.
type Message[T any] interface {
	*T
	protobuf.Message
}

// Clone returns a deep copy of in, made through its protobuf encoding, so
// that an object read from a cache can be changed. A nil in gives nil.
func Clone[T any, PT Message[T]](in PT) PT {
	if in == nil {
		return nil
	}
	out := PT(new(T))
	if err := out.UnmarshalProto(in.MarshalProto(nil)); err != nil {
		// The encoding was just produced by the same type: a failure is a
		// bug in the generated code, not a runtime condition.
		panic(fmt.Sprintf("podcontrol: clone %T: %v", in, err))
	}
	return out
}

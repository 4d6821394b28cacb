package etcd3

import (
	"context"
	"errors"
	"testing"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"

	"platform.io/platform/pkg/apiserver/storage"
)

// TestTranslate checks the table from etcd's errors to the storage
// sentinels, as the client returns them (typed) and as gRPC carries them.
func TestTranslate(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"compacted", rpctypes.ErrCompacted, storage.ErrExpired},
		{"compacted grpc", rpctypes.ErrGRPCCompacted, storage.ErrExpired},
		{"future revision", rpctypes.ErrFutureRev, storage.ErrConflict},
		{"no space", rpctypes.ErrNoSpace, storage.ErrNoSpace},
		{"no space grpc", rpctypes.ErrGRPCNoSpace, storage.ErrNoSpace},
		{"request too large", rpctypes.ErrRequestTooLarge, storage.ErrTooLarge},
		{"deadline", context.DeadlineExceeded, context.DeadlineExceeded},
		{"no leader", rpctypes.ErrNoLeader, storage.ErrUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := translate(tc.err, "/k")
			if !errors.Is(got, tc.want) {
				t.Errorf("translate(%v) = %v, want it to wrap %v", tc.err, got, tc.want)
			}
			if tc.want != storage.ErrUnavailable && errors.Is(got, storage.ErrUnavailable) {
				t.Errorf("translate(%v) = %v also wraps ErrUnavailable", tc.err, got)
			}
		})
	}
}

package etcd3

import (
	"context"
	"testing"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/pkg/apiserver/storage/storagetest"
)

func TestConformance(t *testing.T) {
	client, prefix := etcdtest.Client(t)
	storagetest.Run(t, New(zap.NewNop(), client, nil), prefix)
}

func TestWatchConformance(t *testing.T) {
	client, prefix := etcdtest.Client(t)
	s := New(zap.NewNop(), client, nil)
	storagetest.RunWatch(t, s, prefix, func(rev int64) error {
		_, err := client.Compact(context.Background(), rev)
		return err
	})
}

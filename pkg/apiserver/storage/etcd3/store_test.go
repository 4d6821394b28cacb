package etcd3

import (
	"testing"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/pkg/apiserver/storage/storagetest"
)

func TestConformance(t *testing.T) {
	client, prefix := etcdtest.Client(t)
	storagetest.Run(t, New(zap.NewNop(), client, nil), prefix)
}

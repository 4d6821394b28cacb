package apiserver

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/test/integration/framework"
)

// storedValue reads an object's bytes straight from etcd.
func storedValue(t *testing.T, key string) []byte {
	t.Helper()
	c, err := clientv3.New(clientv3.Config{Endpoints: etcdtest.Endpoints(t), DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp, err := c.Get(context.Background(), key)
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("etcd get %s: %v %v", key, resp, err)
	}
	return resp.Kvs[0].Value
}

// TestStorageMediaType: objects are stored in the protobuf envelope by
// default; data written as JSON stays readable and writable after switching.
func TestStorageMediaType(t *testing.T) {
	jsonServer := framework.Start(t, func(o *options.Options) { o.Etcd.StorageMediaType = "application/json" })
	cm := "/api/v1/namespaces/default/configmaps"
	jsonServer.Do(t, "POST", cm, `{"metadata":{"name":"old","labels":{"a":"b"}},"data":{"k":"v"}}`).Expect(t, http.StatusCreated)
	key := jsonServer.Prefix + "/core/configmaps/default/old"
	if v := storedValue(t, key); !bytes.HasPrefix(v, []byte("{")) {
		t.Fatalf("with application/json the value is not JSON: %q", v[:8])
	}
	jsonServer.Stop()

	s := framework.Start(t, framework.SamePrefix(jsonServer))
	got := s.Do(t, "GET", cm+"/old", nil).Expect(t, http.StatusOK).Map(t)
	if get(got, "data", "k") != "v" || get(got, "metadata", "labels", "a") != "b" {
		t.Fatalf("JSON-stored object read back as %v", got)
	}
	s.Do(t, "PATCH", cm+"/old", `{"data":{"k":"w"}}`, mergePatch).Expect(t, http.StatusOK)
	if v := storedValue(t, key); !bytes.HasPrefix(v, []byte{0x6b, 0x38, 0x73, 0x00}) {
		t.Fatalf("after an update the value is not in the protobuf envelope: %q", v[:8])
	}
	s.Do(t, "POST", cm, `{"metadata":{"name":"new"},"data":{"k":"v"}}`).Expect(t, http.StatusCreated)
	if v := storedValue(t, s.Prefix+"/core/configmaps/default/new"); !bytes.HasPrefix(v, []byte{0x6b, 0x38, 0x73, 0x00}) {
		t.Fatalf("new object not stored as protobuf: %q", v[:8])
	}
	if got := s.Do(t, "GET", cm+"/old", nil).Map(t); get(got, "data", "k") != "w" {
		t.Fatalf("after the patch: %v", got)
	}
}

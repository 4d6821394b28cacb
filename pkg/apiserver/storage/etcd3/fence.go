package etcd3

import (
	"context"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"

	"platform.io/platform/pkg/apiserver/storage"
)

// fenceGuard is one write's storage.Fence and the revision of its key
// that was checked; a nil guard fences nothing.
type fenceGuard struct {
	f      storage.Fence
	rev    int64
	checks int
}

// checkFence reads and checks the fence ctx carries; nil when it carries
// none.
func (s *Store) checkFence(ctx context.Context) (*fenceGuard, error) {
	f, ok := storage.FenceFrom(ctx)
	if !ok {
		return nil, nil
	}
	g := &fenceGuard{f: f}
	if f.Guess != nil {
		if kv, ok := f.Guess(); ok && g.accept(kv) == nil {
			return g, nil
		}
	}
	kv, err := s.getOrAbsent(ctx, f.Key)
	if err != nil {
		return nil, err
	}
	return g, g.accept(kv)
}

func (g *fenceGuard) accept(kv storage.KV) error {
	g.rev = kv.Revision
	g.checks++
	return g.f.Check(kv)
}

// cmp is the compare the write's transaction adds: the fence key is still
// at the checked revision (0: still absent).
func (g *fenceGuard) cmp() []clientv3.Cmp {
	if g == nil {
		return nil
	}
	return []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(g.f.Key), "=", g.rev)}
}

// elseOp reads the fence key in the failed branch, after the write key's read.
func (g *fenceGuard) elseOp() []clientv3.Op {
	if g == nil {
		return nil
	}
	return []clientv3.Op{clientv3.OpGet(g.f.Key)}
}

// moved inspects a failed transaction: it reports whether the fence key
// had changed, after checking its new state (whose error ends the write,
// as does a key that keeps changing).
func (g *fenceGuard) moved(resp *clientv3.TxnResponse) (bool, error) {
	if g == nil || len(resp.Responses) < 2 {
		return false, nil
	}
	kv := fromResponse(g.f.Key, resp.Responses[1])
	if kv.Revision == g.rev {
		return false, nil
	}
	if g.checks > storage.FenceRetries {
		return false, fmt.Errorf("%w: fence %s changed %d times during the write", storage.ErrConflict, g.f.Key, g.checks)
	}
	return true, g.accept(kv)
}

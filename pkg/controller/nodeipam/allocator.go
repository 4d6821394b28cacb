package nodeipam

import (
	"errors"
	"fmt"
	"math/big"
	"net/netip"
)

// ErrFull: every CIDR of the cluster range is in use.
var ErrFull = errors.New("nodeipam: no free pod CIDR left in the cluster CIDR")

// allocator hands out the subnets of size bits of a cluster range, lowest
// free first. It is not safe for concurrent use.
type allocator struct {
	cluster netip.Prefix
	bits    int
	count   int
	used    []bool
	next    int
}

func newAllocator(cluster netip.Prefix, bits int) (*allocator, error) {
	cluster = cluster.Masked()
	if !cluster.Addr().Is4() {
		return nil, fmt.Errorf("nodeipam: cluster CIDR %s: only IPv4 is supported", cluster)
	}
	if bits < cluster.Bits() || bits > 32 {
		return nil, fmt.Errorf("nodeipam: node CIDR mask size %d must be between the cluster CIDR's %d and 32", bits, cluster.Bits())
	}
	if bits-cluster.Bits() > 24 {
		return nil, fmt.Errorf("nodeipam: %d node CIDRs of /%d in %s are too many", 1<<(bits-cluster.Bits()), bits, cluster)
	}
	n := 1 << (bits - cluster.Bits())
	return &allocator{cluster: cluster, bits: bits, count: n, used: make([]bool, n)}, nil
}

// subnet is the i-th subnet.
func (a *allocator) subnet(i int) netip.Prefix {
	base := new(big.Int).SetBytes(a.cluster.Addr().AsSlice())
	base.Add(base, new(big.Int).Lsh(big.NewInt(int64(i)), uint(32-a.bits)))
	var b [4]byte
	base.FillBytes(b[:])
	return netip.PrefixFrom(netip.AddrFrom4(b), a.bits)
}

// index is the position of p in the range, or -1 when p is not one of its
// subnets.
func (a *allocator) index(p netip.Prefix) int {
	if p.Bits() != a.bits || !a.cluster.Contains(p.Addr()) || p.Masked() != p {
		return -1
	}
	off := new(big.Int).Sub(new(big.Int).SetBytes(p.Addr().AsSlice()), new(big.Int).SetBytes(a.cluster.Addr().AsSlice()))
	return int(off.Rsh(off, uint(32-a.bits)).Int64())
}

// occupy marks p used; false when it is not a subnet of the range.
func (a *allocator) occupy(p netip.Prefix) bool {
	i := a.index(p)
	if i < 0 {
		return false
	}
	a.used[i] = true
	return true
}

// release marks p free.
func (a *allocator) release(p netip.Prefix) {
	if i := a.index(p); i >= 0 {
		a.used[i] = false
		a.next = min(a.next, i)
	}
}

// allocate returns the lowest free subnet and marks it used.
func (a *allocator) allocate() (netip.Prefix, error) {
	for i := a.next; i < a.count; i++ {
		if !a.used[i] {
			a.used[i] = true
			a.next = i + 1
			return a.subnet(i), nil
		}
	}
	return netip.Prefix{}, ErrFull
}

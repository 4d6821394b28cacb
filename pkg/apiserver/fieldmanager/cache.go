package fieldmanager

import (
	"bytes"
	"fmt"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Bounds of a setCache: how many sets it holds, and the largest fieldsV1
// it keeps (a larger one is decoded on each use).
const (
	setCacheEntries = 512
	setCacheMaxRaw  = 16 << 10
)

// setCache keeps decoded fieldsV1 sets by their encoding, with the
// canonical encoding of each. Most writes carry the entries of the
// stored object unchanged, and objects made from one template carry the
// same ones, so each write would otherwise parse every entry again and
// encode again those it did not change. Sets are never modified once
// decoded (structured-merge-diff's set algebra returns new sets), so one
// can be shared. Full, it is emptied and fills again.
type setCache struct {
	mu sync.Mutex
	m  map[string]*cachedSet
}

// cachedSet is one decoded fieldsV1: the set, and its encoding as
// Set.ToJSON writes it.
type cachedSet struct {
	set       *fieldpath.Set
	canonical []byte

	// reconciled is the set brought in line with the kind's schema
	// (nil when it already is), worked out once: the schema of a field
	// manager, whose cache this is, does not change.
	reconcile  sync.Once
	reconciled *fieldpath.Set
	reconErr   error
}

// reconciledWith returns the set brought in line with the schema of tv,
// nil when it already is, as typed.ReconcileFieldSetWithSchema does.
func (cs *cachedSet) reconciledWith(tv *typed.TypedValue) (*fieldpath.Set, error) {
	cs.reconcile.Do(func() { cs.reconciled, cs.reconErr = typed.ReconcileFieldSetWithSchema(cs.set, tv) })
	return cs.reconciled, cs.reconErr
}

// decode returns the set raw encodes. On a nil cache it decodes raw each
// time, without its canonical encoding: the slow path.
func (c *setCache) decode(raw []byte) (*cachedSet, error) {
	set := &fieldpath.Set{}
	if c == nil {
		if err := set.FromJSON(bytes.NewReader(raw)); err != nil {
			return nil, err
		}
		return &cachedSet{set: set}, nil
	}
	c.mu.Lock()
	cs := c.m[string(raw)]
	c.mu.Unlock()
	if cs != nil {
		return cs, nil
	}
	if err := set.FromJSON(bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	canonical, err := set.ToJSON()
	if err != nil {
		return nil, fmt.Errorf("fieldmanager: encode fields: %w", err)
	}
	cs = &cachedSet{set: set, canonical: canonical}
	if len(raw) <= setCacheMaxRaw {
		c.mu.Lock()
		if len(c.m) >= setCacheEntries || c.m == nil {
			c.m = make(map[string]*cachedSet, setCacheEntries)
		}
		c.m[string(raw)] = cs
		c.mu.Unlock()
	}
	return cs, nil
}

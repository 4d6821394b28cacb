package garbagecollector

// absentCache remembers owners verified absent, so that the dependents of
// one deleted owner cost one lookup, not one each. A uid is never reused,
// so an entry never goes stale; the oldest entries go first when it is
// full. Callers hold the graph's lock.
type absentCache struct {
	size  int
	set   map[ref]struct{}
	order []ref // insertion order, oldest first
}

func newAbsentCache(size int) *absentCache {
	return &absentCache{size: max(size, 1), set: map[ref]struct{}{}}
}

// key drops the version, which is not part of an object's coordinates.
func key(r ref) ref {
	r.APIVersion = r.group()
	return r
}

func (c *absentCache) add(r ref) {
	r = key(r)
	if _, ok := c.set[r]; ok {
		return
	}
	if len(c.order) >= c.size {
		delete(c.set, c.order[0])
		c.order = c.order[1:]
	}
	c.set[r] = struct{}{}
	c.order = append(c.order, r)
}

func (c *absentCache) has(r ref) bool {
	_, ok := c.set[key(r)]
	return ok
}

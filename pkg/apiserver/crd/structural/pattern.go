package structural

import (
	"regexp"
	"sync"
	"sync/atomic"
)

// patternCacheSize caps the compiled patterns kept; past it a pattern is
// compiled on each use, which is slower but still correct.
const patternCacheSize = 4096

// patterns memoizes compiled pattern keywords for every schema in the
// process. Schema stays a plain data type (comparable with go-cmp,
// decodable with encoding/json), so the compiled form cannot live on it.
var patterns patternCache

type patternCache struct {
	m sync.Map // pattern string -> *regexp.Regexp
	n atomic.Int64
}

// compilePattern returns the compiled pattern, from the cache when it has
// been compiled before.
func compilePattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.m.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	if patterns.n.Load() < patternCacheSize {
		if _, loaded := patterns.m.LoadOrStore(p, re); !loaded {
			patterns.n.Add(1)
		}
	}
	return re, nil
}

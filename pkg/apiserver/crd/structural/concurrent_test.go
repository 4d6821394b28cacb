package structural

import (
	"sync"
	"testing"

	"platform.io/client/api/jsontree"
)

// TestConcurrentUse runs the write path on many goroutines over one
// schema, as the API server does; under -race it shows the schema is
// only read and the pattern cache is safe.
func TestConcurrentUse(t *testing.T) {
	s := mustParse(t, typicalSchema)
	base := object(t, typicalObject)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				o := jsontree.DeepCopy(base).(map[string]any)
				o["spec"].(map[string]any)["unknown"] = 1
				if removed := s.Prune(o, true); len(removed) != 1 {
					t.Errorf("pruned %v", removed)
				}
				s.ApplyDefaults(o)
				if errs := s.Validate(nil, o); len(errs) > 0 {
					t.Errorf("Validate: %v", messages(errs))
				}
			}
		})
	}
	wg.Wait()
}

package podcontrol

import "sync"

// SlowStartBatch calls fn count times, in batches that start at
// initialBatchSize calls and double after every batch that fully
// succeeds, the calls of a batch running at once. It stops after the
// first batch with a failure, so a call that is bound to fail (quota,
// admission) is sent a few times rather than count times. It returns how
// many calls succeeded and the first error.
func SlowStartBatch(count, initialBatchSize int, fn func() error) (int, error) {
	remaining := count
	successes := 0
	for batch := min(remaining, initialBatchSize); batch > 0; batch = min(2*batch, remaining) {
		errs := make(chan error, batch)
		var wg sync.WaitGroup
		for range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := fn(); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		successes += batch - len(errs)
		if err, failed := <-errs; failed {
			return successes, err
		}
		remaining -= batch
	}
	return successes, nil
}

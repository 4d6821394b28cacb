package leaderelection

// Metrics is told of the election's events, keyed by Config.Name; its
// methods must be safe for concurrent use and must not block.
type Metrics interface {
	// LeaderOn is called when this candidate starts leading.
	LeaderOn(name string)
	// LeaderOff is called when it stops leading.
	LeaderOff(name string)
	// SlowpathExercised is called when a leader's renewal could not be
	// written directly and the lock had to be read first.
	SlowpathExercised(name string)
}

// noMetrics drops everything.
type noMetrics struct{}

func (noMetrics) LeaderOn(string)          {}
func (noMetrics) LeaderOff(string)         {}
func (noMetrics) SlowpathExercised(string) {}

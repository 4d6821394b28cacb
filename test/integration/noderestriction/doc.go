// Package noderestriction tests the NodeRestriction admission plugin on a
// real API server under Node,RBAC: nodes present client certificates of
// their own, as the simulated nodes of `make run` do, and may write what
// concerns them and nothing else.
package noderestriction

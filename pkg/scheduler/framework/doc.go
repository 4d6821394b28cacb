// Package framework is the scheduler's plugin contract: one small interface
// per extension point (queue sort, pre-filter, filter, post-filter,
// pre-score, score with normalize, reserve, permit, bind), the Status they
// return, the per-cycle state they share, and NodeInfo, the cached view of
// one node with the pods on it. Plugins see only what Handle gives them: a
// snapshot of the cluster taken at the start of the cycle, never the
// informers or the API server directly (except Bind and preemption, through
// Handle's clients).
//
// It also holds the few helpers every plugin would otherwise copy:
// DecodeArgs, the strict decoder of a plugin's JSON arguments; ReadState,
// the typed read of a plugin's own CycleState data; and
// DefaultNormalizeScore, the linear scaling of scores by the largest.
package framework

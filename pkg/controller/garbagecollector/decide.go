package garbagecollector

import "platform.io/client/api/meta"

// verdict is what attemptToDelete does to an object after classifying its
// owners.
type verdict struct {
	// removeRefs lists the owners whose references are dropped: the object
	// keeps a solid owner.
	removeRefs []meta.UID
	// delete says the object goes, with policy.
	delete bool
	policy meta.DeletionPropagation
	// unblock lists owners whose references get blockOwnerDeletion=false
	// before the delete, to break a cycle of foreground deletions.
	unblock []meta.UID
}

// item is what decide needs to know of the object itself.
type item struct {
	finalizers []string
	// hasDependents: the object owns something in the graph.
	hasDependents bool
	// dependentDeletingDependents: one of those is itself in foreground
	// deletion (a possible cycle).
	dependentDeletingDependents bool
}

// decide is the upstream decision: an object with a solid owner stays and
// drops its references to the others; an object whose owners are all gone
// or waiting for it is deleted, in the foreground when an owner waits and
// it has dependents of its own, else as its own finalizers ask.
func decide(solid, dangling, waiting []meta.OwnerReference, it item) verdict {
	switch {
	case len(solid) > 0:
		if len(dangling)+len(waiting) == 0 {
			return verdict{}
		}
		return verdict{removeRefs: append(uids(dangling), uids(waiting)...)}
	case len(waiting) > 0 && it.hasDependents:
		v := verdict{delete: true, policy: meta.DeletePropagationForeground}
		if it.dependentDeletingDependents {
			v.unblock = uids(waiting)
		}
		return v
	}
	policy := meta.DeletePropagationBackground
	for _, f := range it.finalizers {
		switch f {
		case meta.FinalizerOrphanDependents:
			policy = meta.DeletePropagationOrphan
		case meta.FinalizerDeleteDependents:
			if policy != meta.DeletePropagationOrphan {
				policy = meta.DeletePropagationForeground
			}
		}
	}
	return verdict{delete: true, policy: policy}
}

// blockers returns the dependents that keep an owner in foreground
// deletion: those whose reference to it has blockOwnerDeletion set. The
// owner's finalizer goes when there are none; the others are asked to go.
func blockers(deps []dependent) []dependent {
	var out []dependent
	for _, d := range deps {
		if d.blocking {
			out = append(out, d)
		}
	}
	return out
}

func uids(refs []meta.OwnerReference) []meta.UID {
	out := make([]meta.UID, 0, len(refs))
	for _, r := range refs {
		out = append(out, r.UID)
	}
	return out
}

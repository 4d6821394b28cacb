// Package history keeps a workload's revisions as ControllerRevisions: the
// hash that names a revision, building, finding and creating the revisions
// an object owns (retrying with a bumped collision count on a name clash),
// and choosing the old ones to delete beyond revisionHistoryLimit. It holds
// no state; callers read revisions from their informer.
package history

// Package scheduler is the scheduling loop: one goroutine pops the next
// pod, filters and scores the nodes of a fresh snapshot with the pod's
// profile, reserves and assumes the chosen node, and hands the pod to an
// asynchronous binding cycle; failures are recorded (event, PodScheduled
// condition) and requeued. Informer handlers keep the cache and the queue
// in step with the API server. Only pods whose spec.schedulerName names a
// profile, that are not bound and not being deleted, are scheduled.
package scheduler

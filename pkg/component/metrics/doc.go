// Package metrics implements the metric hooks of the staging client
// libraries with Prometheus collectors registered on a daemon's registry,
// under upstream's metric names:
//
//   - Workqueue is a workqueue.MetricsProvider: workqueue_depth,
//     workqueue_adds_total, workqueue_queue_duration_seconds,
//     workqueue_work_duration_seconds, workqueue_unfinished_work_seconds,
//     workqueue_longest_running_processor_seconds and
//     workqueue_retries_total, each labelled by the queue's name;
//   - RESTClient is a rest.Metrics: rest_client_rate_limiter_duration_seconds
//     by verb and host.
//
// Two providers on one registry share the collectors, so queues of
// different parts of a daemon report to the same series families.
package metrics

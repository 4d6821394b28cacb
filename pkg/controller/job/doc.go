// Package job is the "job" control loop: it runs a Job's pods until
// spec.completions of them have succeeded (or, without completions, until
// one has and the rest have ended), within backoffLimit failures and
// activeDeadlineSeconds, and keeps the Job's status and conditions current.
package job

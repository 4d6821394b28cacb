// Package job is the registry row of batch/v1 jobs: defaults, the selector
// and pod labels the server generates from the job's uid and name, and the
// validation of specs and their updates.
package job

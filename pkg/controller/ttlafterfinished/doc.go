// Package ttlafterfinished is the "ttl-after-finished" control loop: it
// deletes a finished Job (Complete or Failed) once
// spec.ttlSecondsAfterFinished has passed since it finished, with
// Background propagation, after re-reading the Job from the server so a
// TTL changed meanwhile wins.
package ttlafterfinished

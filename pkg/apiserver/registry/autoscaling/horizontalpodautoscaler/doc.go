// Package horizontalpodautoscaler holds the registry rows of
// horizontalpodautoscalers: autoscaling/v2, the storage version, and
// autoscaling/v1, served by converting to and from it (v2 fields v1 cannot
// hold ride in annotations, so a round trip through v1 loses nothing).
// Defaulting and validation are upstream's and run on the v2 form.
package horizontalpodautoscaler

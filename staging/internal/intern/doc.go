// Package intern shares the strings, and values computed from them, that
// decoders see over and over, in a lock-free table of bounded size. The
// protobuf codec interns short strings through it and the resource package
// caches parsed quantities; neither keeps more than one entry per bucket.
package intern

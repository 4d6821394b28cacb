// Package badinput holds a corpus of malformed and hostile requests
// (testdata/*.yaml, one file per category) and the test that sends each to
// a real API server: every one must be answered by a Status with the
// expected 4xx code, never a 5xx, a panic or a hang, and none may change
// what is stored in etcd.
package badinput

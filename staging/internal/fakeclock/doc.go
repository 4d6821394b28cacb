// Package fakeclock is a manually stepped clock for tests: timers fire
// during Step once the fake time reaches their deadline.
package fakeclock

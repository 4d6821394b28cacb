// Package scheduler tests the scheduler in-process against a real API
// server: nodes and pods are API objects, the scheduler is the one the
// platform-scheduler binary builds, and every test checks what the API
// server ends up holding (bindings, events, pod conditions).
package scheduler

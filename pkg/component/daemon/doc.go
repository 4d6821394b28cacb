// Package daemon is the shared main of the scheduler, the controller
// manager and the cloud controller manager: it parses the shared and the
// daemon's own options (defaults < config file < flags), builds the logger,
// metrics registry, API client, shared informers and event recorder, serves
// the secure endpoint, and runs the daemon's work under leader election. A
// leader that loses its lock exits with an error; SIGTERM stops the work,
// releases the lock, and closes the server, in that order.
package daemon

// Package component is the base every daemon of the control plane shares:
// option groups, serving, health, metrics, logging and leader election.
// Subpackages hold one concern each:
//
//   - cli: the cobra command with flags in named groups;
//   - options: the shared flags (client, secure serving, delegated
//     authentication and authorization, leader election, debugging,
//     logging, version) and the daemons' defaults;
//   - server: the HTTPS endpoint with health, metrics and profiling;
//   - healthz: /healthz, /livez and /readyz checks;
//   - authn, authz: authentication and authorization delegated to the API
//     server; status: the Status bodies of their refusals;
//   - run: signals, the errgroup of parts and the shutdown order;
//   - metrics: Prometheus implementations of the client libraries' hooks;
//   - certs, featuregate, version: certificates, --feature-gates, --version.
package component

// Package healthz serves /healthz, /livez and /readyz the way upstream
// components do: "ok" when every named check passes; with ?verbose one
// line per check ("[+]name ok", "[-]name failed: reason withheld"); with
// ?exclude=name a check is skipped; a failure answers 500 with the
// per-check lines. /healthz/NAME runs the one check and, on failure, tells
// its error. Reasons are withheld from the aggregate report because these
// endpoints are usually open to anonymous callers; they are logged instead.
//
// Checks can be added while serving, and a Slot is a check whose function
// is provided later (the leader-election watchdog, created once the
// elector exists); an empty slot passes.
package healthz

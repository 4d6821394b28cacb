// Package endpoints is the endpoint loop: it keeps one Endpoints object per
// Service with a selector, named as the Service, listing the addresses of
// the selected pods (ready and not ready apart) with the Service's ports
// resolved on each pod, and deletes it with the Service. Services without
// a selector are left to their owners.
package endpoints

// Package simcloud is a simulated cloud for the cloud controller manager,
// served as a provider plugin by cmd/platform-simcloud. Its instances
// stand for the simulated nodes of test/simnode (same names and internal
// addresses), and tests can shut them down, start them or delete them; its
// load balancers open real TCP listeners on loopback addresses they
// allocate and forward each connection to one of the Service's endpoints
// (there is no node proxy to send it through); its route table is a map.
package simcloud

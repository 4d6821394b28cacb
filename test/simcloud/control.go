package simcloud

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
)

// LoadBalancerInfo describes a load balancer, for tests and the control
// endpoint.
type LoadBalancerInfo struct {
	Namespace string   `json:"namespace"`
	Name      string   `json:"name"`
	IP        string   `json:"ip"`
	Ports     []int32  `json:"ports"`
	Nodes     []string `json:"nodes"`
}

// ListInstances returns the instances, sorted by name.
func (c *Cloud) ListInstances() []Instance {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Instance, 0, len(c.instances))
	for _, in := range c.instances {
		out = append(out, *in)
	}
	slices.SortFunc(out, func(a, b Instance) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ListLoadBalancers returns the load balancers, sorted by service.
func (c *Cloud) ListLoadBalancers() []LoadBalancerInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]LoadBalancerInfo, 0, len(c.lbs))
	for _, lb := range c.lbs {
		info := LoadBalancerInfo{Namespace: lb.namespace, Name: lb.name, IP: lb.ip.String(), Nodes: slices.Clone(lb.nodes)}
		for port := range lb.listeners {
			info.Ports = append(info.Ports, port)
		}
		slices.Sort(info.Ports)
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b LoadBalancerInfo) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	return out
}

// Handler is the cloud's control endpoint, for tests and operators:
//
//	GET    /instances                  the instances, as JSON
//	POST   /instances/<name>/shutdown  shuts the instance down
//	POST   /instances/<name>/start     starts it again
//	DELETE /instances/<name>           deletes it
//	GET    /loadbalancers              the load balancers, as JSON
//	GET    /routes?cluster=<name>      the cluster's routes, as JSON
//
// An unknown instance answers 404.
func (c *Cloud) Handler() http.Handler {
	mux := http.NewServeMux()
	writeJSON := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	act := func(f func(string) error) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			err := f(r.PathValue("name"))
			switch {
			case errors.Is(err, ErrUnknownInstance):
				http.Error(w, err.Error(), http.StatusNotFound)
			case err != nil:
				http.Error(w, err.Error(), http.StatusInternalServerError)
			default:
				w.WriteHeader(http.StatusNoContent)
			}
		}
	}
	mux.HandleFunc("GET /instances", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, c.ListInstances()) })
	mux.HandleFunc("POST /instances/{name}/shutdown", act(func(n string) error { return c.SetShutdown(n, true) }))
	mux.HandleFunc("POST /instances/{name}/start", act(func(n string) error { return c.SetShutdown(n, false) }))
	mux.HandleFunc("DELETE /instances/{name}", act(c.DeleteInstance))
	mux.HandleFunc("GET /loadbalancers", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, c.ListLoadBalancers()) })
	mux.HandleFunc("GET /routes", func(w http.ResponseWriter, r *http.Request) {
		routes, _ := c.ListRoutes(context.Background(), r.URL.Query().Get("cluster"))
		writeJSON(w, routes)
	})
	return mux
}

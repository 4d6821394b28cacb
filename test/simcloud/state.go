package simcloud

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"

	cloud "platform.io/client/cloudprovider"
)

// state is what a cloud keeps in Config.StateFile, so that a restarted
// plugin serves the same cloud: a real cloud's load balancers do not go
// when the plugin that drives them restarts.
type state struct {
	Instances     []Instance             `json:"instances"`
	LoadBalancers []savedLB              `json:"loadBalancers"`
	Routes        map[string]cloud.Route `json:"routes"`
}

type savedLB struct {
	Namespace string      `json:"namespace"`
	Name      string      `json:"name"`
	IP        string      `json:"ip"`
	Ports     []savedPort `json:"ports"`
	Nodes     []string    `json:"nodes"`
}

type savedPort struct {
	Name string `json:"name"`
	Port int32  `json:"port"`
}

// saveLocked writes the state file, if there is one, atomically.
func (c *Cloud) saveLocked() error {
	if c.cfg.StateFile == "" {
		return nil
	}
	st := state{Routes: c.routes}
	for _, in := range c.instances {
		st.Instances = append(st.Instances, *in)
	}
	for _, lb := range c.lbs {
		s := savedLB{Namespace: lb.namespace, Name: lb.name, IP: lb.ip.String(), Nodes: lb.nodes}
		for port, l := range lb.listeners {
			s.Ports = append(s.Ports, savedPort{Name: *l.portName.Load(), Port: port})
		}
		st.LoadBalancers = append(st.LoadBalancers, s)
	}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp := c.cfg.StateFile + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("simcloud: save state: %w", err)
	}
	if err := os.Rename(tmp, c.cfg.StateFile); err != nil {
		return fmt.Errorf("simcloud: save state: %w", err)
	}
	return nil
}

// load reads the state file, if it exists, replacing the starting
// instances, and opens the saved load balancers' listeners again. It
// reports whether there was a state to load.
func (c *Cloud) load() (bool, error) {
	if c.cfg.StateFile == "" {
		return false, nil
	}
	data, err := os.ReadFile(filepath.Clean(c.cfg.StateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("simcloud: load state: %w", err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return false, fmt.Errorf("simcloud: load state %s: %w", c.cfg.StateFile, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.instances = map[string]*Instance{}
	for _, in := range st.Instances {
		c.instances[in.Name] = &in
	}
	if st.Routes != nil {
		c.routes = st.Routes
	}
	for _, s := range st.LoadBalancers {
		ip, err := netip.ParseAddr(s.IP)
		if err != nil {
			return false, fmt.Errorf("simcloud: load state: load balancer %s/%s: %w", s.Namespace, s.Name, err)
		}
		lb := &loadBalancer{namespace: s.Namespace, name: s.Name, ip: ip, listeners: map[int32]*listener{}, nodes: s.Nodes}
		c.lbs[s.Namespace+"/"+s.Name] = lb
		c.used[ip] = true
		for _, p := range s.Ports {
			l, err := c.listen(lb, cloud.ServicePort{Name: p.Name, Port: p.Port, Protocol: "TCP"})
			if err != nil {
				return false, err
			}
			lb.listeners[p.Port] = l
		}
	}
	return true, nil
}

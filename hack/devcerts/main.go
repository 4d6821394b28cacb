// Command devcerts writes the certificates of a local control plane into a
// directory: a CA (ca.crt, ca.key), the API server's serving pair
// (apiserver.crt, for localhost, 127.0.0.1 and every -hosts entry), an
// admin client pair (admin.crt: user "admin" in group "system:masters"),
// one client pair per daemon (scheduler.crt, controller-manager.crt,
// cloud-controller-manager.crt, metrics-server.crt: users
// system:platform-<daemon>), and one
// per simulated node (nodes/<name>.crt: user system:node:<name> in group
// system:nodes), sa.key, the key that signs service-account tokens, and
// the front proxy's CA (front-proxy-ca.crt) with the client pair the API
// server presents to aggregated API servers (front-proxy-client.crt,
// common name front-proxy-client).
// Existing files are kept, so kubeconfigs stay valid across
// restarts; a missing one is made with the existing CA.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"platform.io/platform/pkg/component/certs"
)

func main() {
	dir := flag.String("dir", "_output/local/certs", "directory of the certificates")
	hosts := flag.String("hosts", "", "comma-separated extra names and IPs of the API server's serving certificate (its advertise address)")
	nodes := flag.Int("nodes", 0, "number of simulated nodes to write a client certificate for")
	prefix := flag.String("node-prefix", "simnode-", "prefix of the simulated nodes' names; node i is <prefix><i>")
	flag.Parse()
	var extra []string
	if *hosts != "" {
		extra = strings.Split(*hosts, ",")
	}
	if err := run(*dir, extra, *nodes, *prefix); err != nil {
		fmt.Fprintf(os.Stderr, "devcerts: %v\n", err)
		os.Exit(1)
	}
}

// clientPairs are the client pairs besides the nodes': file name, user
// and groups.
func clientPairs() []struct {
	file, user string
	groups     []string
} {
	return []struct {
		file, user string
		groups     []string
	}{
		{"admin", "admin", []string{"system:masters"}},
		{"scheduler", "system:platform-scheduler", nil},
		{"controller-manager", "system:platform-controller-manager", nil},
		{"cloud-controller-manager", "system:platform-cloud-controller-manager", nil},
		{"metrics-server", "system:platform-metrics-server", nil},
	}
}

func run(dir string, hosts []string, nodes int, prefix string) error {
	ca, err := certs.Load(dir, "ca")
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("load the CA: %w", err)
		}
		if ca, err = certs.NewCA("platform-local-ca"); err != nil {
			return err
		}
		if err := ca.Write(dir, "ca"); err != nil {
			return err
		}
	}
	if err := ensure(dir, "apiserver", func() (*certs.Pair, error) {
		return certs.NewServing(ca, "platform-apiserver", hosts)
	}); err != nil {
		return err
	}
	// The token signer is a key pair like any other; only sa.key is used.
	if err := ensure(dir, "sa", func() (*certs.Pair, error) { return certs.NewCA("platform-service-account-signer") }); err != nil {
		return err
	}
	for _, c := range clientPairs() {
		if err := ensure(dir, c.file, func() (*certs.Pair, error) { return certs.NewClient(ca, c.user, c.groups) }); err != nil {
			return err
		}
	}
	if err := frontProxy(dir); err != nil {
		return err
	}
	for i := range nodes {
		name := fmt.Sprintf("%s%d", prefix, i)
		if err := ensure(filepath.Join(dir, "nodes"), name, func() (*certs.Pair, error) {
			return certs.NewClient(ca, "system:node:"+name, []string{"system:nodes"})
		}); err != nil {
			return err
		}
	}
	return nil
}

// FrontProxyClient is the common name of the front-proxy client pair,
// which the API server's --requestheader-allowed-names lists.
const FrontProxyClient = "front-proxy-client"

// frontProxy writes the front proxy's own CA, separate from the client CA
// so that no client certificate can pass for the proxy, and its client
// pair.
func frontProxy(dir string) error {
	ca, err := certs.Load(dir, "front-proxy-ca")
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("load the front-proxy CA: %w", err)
		}
		if ca, err = certs.NewCA("platform-front-proxy-ca"); err != nil {
			return err
		}
		if err := ca.Write(dir, "front-proxy-ca"); err != nil {
			return err
		}
	}
	return ensure(dir, "front-proxy-client", func() (*certs.Pair, error) { return certs.NewClient(ca, FrontProxyClient, nil) })
}

// ensure writes dir/name.{crt,key} made by mk unless the pair is there.
func ensure(dir, name string, mk func() (*certs.Pair, error)) error {
	if _, err := certs.Load(dir, name); err == nil {
		return nil
	}
	p, err := mk()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return p.Write(dir, name)
}

// Command devcerts writes the certificates of a local control plane into a
// directory, once: a CA (ca.crt), the API server's serving pair
// (apiserver.crt, signed by the CA) and an admin client pair (admin.crt,
// user "admin" in group "system:masters"). Existing files are kept, so
// kubeconfigs stay valid across restarts.
package main

import (
	"flag"
	"fmt"
	"os"

	"platform.io/platform/pkg/component/certs"
)

func main() {
	dir := flag.String("dir", "_output/local/certs", "directory of the certificates")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintf(os.Stderr, "devcerts: %v\n", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if _, err := certs.Load(dir, "admin"); err == nil {
		return nil
	}
	ca, err := certs.NewCA("platform-local-ca")
	if err != nil {
		return err
	}
	srv, err := certs.NewServing(ca, "platform-apiserver", nil)
	if err != nil {
		return err
	}
	admin, err := certs.NewClient(ca, "admin", []string{"system:masters"})
	if err != nil {
		return err
	}
	for name, p := range map[string]*certs.Pair{"ca": ca, "apiserver": srv, "admin": admin} {
		if err := p.Write(dir, name); err != nil {
			return err
		}
	}
	return nil
}

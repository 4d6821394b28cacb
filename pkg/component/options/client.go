package options

import (
	"fmt"
	"time"

	"platform.io/client/rest"
)

// Settings of the clients that send reviews, as upstream has them: high
// limits, since they bound how fast the endpoint answers, and a timeout.
const (
	reviewQPS     = 200
	reviewBurst   = 400
	reviewTimeout = 10 * time.Second
)

// reviewClient returns a client for the kubeconfig at path, which flag
// names, sending userAgent ("" for the client library's default).
func reviewClient(flag, path, userAgent string) (*rest.Client, error) {
	kc, err := rest.LoadKubeconfig(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	cfg, err := kc.ClientConfig("")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	cfg.QPS, cfg.Burst, cfg.Timeout = reviewQPS, reviewBurst, reviewTimeout
	cfg.ContentType = rest.ContentTypeJSON
	cfg.UserAgent = userAgent
	c, err := rest.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return c, nil
}

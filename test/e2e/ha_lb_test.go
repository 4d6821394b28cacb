package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// lbCheckInterval is how often the load balancer probes each API
// server's /readyz.
const lbCheckInterval = 200 * time.Millisecond

// haLB is the TCP load balancer operators put in front of their API
// servers (haproxy, a cloud load balancer): each connection goes to the
// next API server, in turn, whose last /readyz probe answered ok; a
// server that refuses the connection is marked down at once. It listens
// on 127.0.0.1, which the shared serving certificate names.
type haLB struct {
	ln       net.Listener
	backends []string
	hc       *http.Client
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup

	// mu guards up, next and conns.
	mu    sync.Mutex
	up    []bool
	next  int
	conns map[net.Conn]struct{}
}

// startLB starts a load balancer over backends (host:port of API servers
// whose certificates caPEM signs); it stops when the test ends.
func startLB(t *testing.T, backends []string, caPEM []byte, id *clientIdentity) *haLB {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	lb := &haLB{ln: ln, backends: backends, hc: httpsClient(caPEM, id), ctx: ctx, cancel: cancel,
		up: make([]bool, len(backends)), conns: map[net.Conn]struct{}{}}
	lb.probe()
	lb.wg.Add(2)
	go lb.checkLoop()
	go lb.acceptLoop()
	t.Cleanup(lb.close)
	return lb
}

// URL is the load balancer's HTTPS address.
func (lb *haLB) URL() string { return "https://" + lb.ln.Addr().String() }

func (lb *haLB) close() {
	lb.cancel()
	lb.ln.Close()
	lb.mu.Lock()
	for c := range lb.conns {
		c.Close()
	}
	lb.mu.Unlock()
	lb.wg.Wait()
}

func (lb *haLB) checkLoop() {
	defer lb.wg.Done()
	tick := time.NewTicker(lbCheckInterval)
	defer tick.Stop()
	for {
		select {
		case <-lb.ctx.Done():
			return
		case <-tick.C:
			lb.probe()
		}
	}
}

// probe checks every backend's /readyz once.
func (lb *haLB) probe() {
	up := make([]bool, len(lb.backends))
	for i, b := range lb.backends {
		up[i] = readyz(lb.hc, "https://"+b) == nil
	}
	lb.mu.Lock()
	lb.up = up
	lb.mu.Unlock()
}

func (lb *haLB) acceptLoop() {
	defer lb.wg.Done()
	for {
		c, err := lb.ln.Accept()
		if err != nil {
			return
		}
		lb.wg.Add(1)
		go func() {
			defer lb.wg.Done()
			lb.proxy(c)
		}()
	}
}

// dial connects to the next backend that is up, marking down the ones
// that refuse.
func (lb *haLB) dial() (net.Conn, error) {
	for range lb.backends {
		lb.mu.Lock()
		i := lb.next
		lb.next = (lb.next + 1) % len(lb.backends)
		up := lb.up[i]
		lb.mu.Unlock()
		if !up {
			continue
		}
		c, err := net.DialTimeout("tcp", lb.backends[i], time.Second)
		if err == nil {
			return c, nil
		}
		lb.mu.Lock()
		lb.up[i] = false
		lb.mu.Unlock()
	}
	return nil, fmt.Errorf("no API server of %v is up", lb.backends)
}

// proxy copies bytes both ways between c and a backend until either side
// closes.
func (lb *haLB) proxy(c net.Conn) {
	b, err := lb.dial()
	if err != nil {
		c.Close()
		return
	}
	if !lb.track(c, b) {
		return
	}
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(b, c)
	go pipe(c, b)
	<-done
	c.Close()
	b.Close()
	<-done
	lb.mu.Lock()
	delete(lb.conns, c)
	delete(lb.conns, b)
	lb.mu.Unlock()
}

// track records both ends for close; it reports false, closing them,
// when the load balancer is closing.
func (lb *haLB) track(c, b net.Conn) bool {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if lb.ctx.Err() != nil {
		c.Close()
		b.Close()
		return false
	}
	lb.conns[c], lb.conns[b] = struct{}{}, struct{}{}
	return true
}

// httpsClient trusts caPEM only, presents id's admin certificate and gives
// up after a second.
func httpsClient(caPEM []byte, id *clientIdentity) *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	return &http.Client{Timeout: time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{id.Certificate()}}, DisableKeepAlives: true}}
}

// readyz returns nil when url's /readyz answers 200 "ok".
func readyz(hc *http.Client, url string) error {
	resp, err := hc.Get(url + "/readyz")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(body) != "ok" {
		return fmt.Errorf("%s/readyz: HTTP %d: %s", url, resp.StatusCode, body)
	}
	return nil
}

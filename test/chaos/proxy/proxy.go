package proxy

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/textproto"
	"sync"
	"sync/atomic"
)

// SenderHeader is the header etcd's peer transport sends on every request
// with the sending member's id (hexadecimal).
const SenderHeader = "X-Server-From"

// maxHeader bounds how much of a connection's start is read to find its
// sender.
const maxHeader = 64 << 10

// Network is the proxies of one cluster's members, by member name.
type Network struct {
	// mu guards proxies, ids and isolated.
	mu      sync.Mutex
	proxies map[string]*Proxy
	// ids maps a member's id, as its requests carry it, to its name.
	ids      map[string]string
	isolated map[string]bool
}

// NewNetwork returns an empty network.
func NewNetwork() *Network {
	return &Network{proxies: map[string]*Proxy{}, ids: map[string]string{}, isolated: map[string]bool{}}
}

// Add starts the proxy of member name: it listens on listen
// ("127.0.0.2:0" picks a port) and forwards to target. It returns the
// proxy, whose Addr the member advertises.
func (n *Network) Add(name, listen, target string) (*Proxy, error) {
	lis, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, err
	}
	p := &Proxy{net: n, name: name, target: target, lis: lis, conns: map[*conn]struct{}{}, done: make(chan struct{})}
	n.mu.Lock()
	n.proxies[name] = p
	n.mu.Unlock()
	go p.serve()
	return p, nil
}

// SetID tells the network member name's id (hexadecimal, as etcd's
// peer requests carry it), so its outgoing connections are recognised.
func (n *Network) SetID(name, id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.ids[id] = name
}

// Isolate cuts member name off: every byte to it, and every byte it sends
// to another member, is dropped from now on, on open connections and new
// ones alike.
func (n *Network) Isolate(name string) {
	n.mu.Lock()
	n.isolated[name] = true
	proxies := n.all()
	n.mu.Unlock()
	for _, p := range proxies {
		p.apply()
	}
}

// Heal ends every isolation. Connections that lost bytes are closed, so
// the members reconnect on clean streams.
func (n *Network) Heal() {
	n.mu.Lock()
	n.isolated = map[string]bool{}
	proxies := n.all()
	n.mu.Unlock()
	for _, p := range proxies {
		p.closeDropped()
	}
}

// Close stops every proxy.
func (n *Network) Close() {
	n.mu.Lock()
	proxies := n.all()
	n.mu.Unlock()
	for _, p := range proxies {
		p.Close()
	}
}

func (n *Network) all() []*Proxy {
	out := make([]*Proxy, 0, len(n.proxies))
	for _, p := range n.proxies {
		out = append(out, p)
	}
	return out
}

// cut reports whether traffic from sender (a member id, or "" when not
// known) to member to is dropped.
func (n *Network) cut(sender, to string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.isolated[to] || (sender != "" && n.isolated[n.ids[sender]])
}

// Proxy forwards the connections to one member's peer listener.
type Proxy struct {
	net    *Network
	name   string
	target string
	lis    net.Listener
	// mu guards conns.
	mu    sync.Mutex
	conns map[*conn]struct{}
	done  chan struct{}
	once  sync.Once
}

// Addr is the address the proxy listens on.
func (p *Proxy) Addr() string { return p.lis.Addr().String() }

// Close stops listening and closes every connection.
func (p *Proxy) Close() {
	p.once.Do(func() {
		close(p.done)
		p.lis.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for c := range p.conns {
			c.close()
		}
	})
}

func (p *Proxy) serve() {
	for {
		in, err := p.lis.Accept()
		if err != nil {
			select {
			case <-p.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		go p.handle(in)
	}
}

// conn is one proxied connection.
type conn struct {
	in, out net.Conn
	sender  string
	// dropped is set while the connection's bytes are dropped; it stays
	// set once bytes were lost, until the connection is closed.
	dropping, lost atomic.Bool
}

func (c *conn) close() {
	c.in.Close()
	if c.out != nil {
		c.out.Close()
	}
}

// handle reads the start of a connection to learn its sender, dials the
// member, and copies both ways.
func (p *Proxy) handle(in net.Conn) {
	br := bufio.NewReaderSize(in, maxHeader)
	head := peekHeader(br)
	out, err := net.Dial("tcp", p.target)
	if err != nil {
		in.Close()
		return
	}
	c := &conn{in: in, out: out, sender: senderOf(head)}
	p.mu.Lock()
	select {
	case <-p.done:
		p.mu.Unlock()
		c.close()
		return
	default:
	}
	p.conns[c] = struct{}{}
	p.mu.Unlock()
	c.dropping.Store(p.net.cut(c.sender, p.name))
	var wg sync.WaitGroup
	wg.Go(func() { c.pump(out, br) })
	wg.Go(func() { c.pump(in, out) })
	wg.Wait()
	c.close()
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

// pump copies src to dst, dropping what it reads while the connection is
// cut; it ends when either side does.
func (c *conn) pump(dst io.Writer, src io.Reader) {
	defer c.close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if c.dropping.Load() {
				c.lost.Store(true)
			} else if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// apply updates every connection after a change of isolation.
func (p *Proxy) apply() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		if p.net.cut(c.sender, p.name) {
			c.dropping.Store(true)
		}
	}
}

// closeDropped closes the connections that are cut or lost bytes.
func (p *Proxy) closeDropped() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		if c.dropping.Load() || c.lost.Load() {
			c.close()
		}
	}
}

// peekHeader returns the start of the connection up to the end of the
// first request's header, without consuming it; it returns what arrived
// when the header is longer than the buffer or the read fails.
func peekHeader(br *bufio.Reader) []byte {
	for n := 1; ; n = br.Buffered() + 1 {
		_, err := br.Peek(n)
		b, _ := br.Peek(br.Buffered())
		if i := bytes.Index(b, []byte("\r\n\r\n")); i >= 0 {
			return b[:i+4]
		}
		if err != nil || n >= maxHeader {
			return b
		}
	}
}

// senderOf returns the sender header of a request header, or "".
func senderOf(head []byte) string {
	i := bytes.Index(head, []byte("\r\n"))
	if i < 0 {
		return ""
	}
	r := textproto.NewReader(bufio.NewReader(bytes.NewReader(head[i+2:])))
	h, _ := r.ReadMIMEHeader()
	return h.Get(SenderHeader)
}

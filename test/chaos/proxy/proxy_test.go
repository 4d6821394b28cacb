package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestIsolate sends requests as member a to member b's proxy: they pass,
// are dropped while a or b is isolated, and pass again after Heal.
func TestIsolate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "from "+r.Header.Get(SenderHeader))
	}))
	defer srv.Close()
	n := NewNetwork()
	defer n.Close()
	p, err := n.Add("b", "127.0.0.1:0", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	n.SetID("a", "a1")
	n.SetID("b", "b1")
	// kept is a connection kept open across every case: isolation must
	// cut it too, and healing must close it so it is dialled anew.
	kept := &http.Transport{MaxIdleConnsPerHost: 1}
	defer kept.CloseIdleConnections()
	send := func(sender string) error {
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		if sender == "a1" {
			tr = kept
		}
		hc := &http.Client{Transport: tr, Timeout: 300 * time.Millisecond}
		req, _ := http.NewRequest(http.MethodGet, "http://"+p.Addr()+"/raft/probing", nil)
		req.Header.Set(SenderHeader, sender)
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, err = io.ReadAll(resp.Body)
		return err
	}
	tests := []struct {
		name     string
		change   func()
		sender   string
		wantPass bool
	}{
		{name: "no faults", change: func() {}, sender: "a1", wantPass: true},
		{name: "sender isolated", change: func() { n.Isolate("a") }, sender: "a1"},
		{name: "other sender, sender isolated", change: func() {}, sender: "c1", wantPass: true},
		{name: "healed", change: n.Heal, sender: "a1", wantPass: true},
		{name: "receiver isolated", change: func() { n.Isolate("b") }, sender: "c1"},
		{name: "healed again", change: n.Heal, sender: "c1", wantPass: true},
	}
	for _, tc := range tests {
		tc.change()
		err := send(tc.sender)
		if tc.wantPass && err != nil {
			t.Errorf("%s: request failed: %v", tc.name, err)
		}
		if !tc.wantPass && err == nil {
			t.Errorf("%s: request passed", tc.name)
		}
	}
}

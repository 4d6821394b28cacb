package sacredentials

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.uber.org/zap"

	authnv1 "platform.io/client/api/authentication/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
)

// Namespace holds the loops' service accounts.
const Namespace = "platform-system"

// Lifetime is the lifetime asked for each token; a token is replaced once
// four fifths of the lifetime it was given have passed.
const Lifetime = time.Hour

// retry spaces attempts after a failed refresh.
const retry = 10 * time.Second

// Provider issues and refreshes the loops' tokens. Each token is kept in
// a file of a private directory, which the loop's client reads again
// whenever it changes (rest.Config.BearerTokenFile).
type Provider struct {
	lg      *zap.Logger
	base    *rest.Config
	rc      *rest.Client
	clients *client.Set
	dir     string
	now     func() time.Time

	mu    sync.Mutex
	renew map[string]time.Time // account -> when its token is to be replaced
}

// New returns a provider acting through rc (the controller manager's own
// identity, allowed to create service accounts and their tokens in
// platform-system), handing out copies of base. It makes a private
// directory for the tokens; Close removes it.
func New(lg *zap.Logger, base *rest.Config, rc *rest.Client) (*Provider, error) {
	dir, err := os.MkdirTemp("", "platform-controller-manager-tokens-")
	if err != nil {
		return nil, fmt.Errorf("token directory: %w", err)
	}
	return &Provider{lg: lg, base: base, rc: rc, clients: client.NewSet(rc), dir: dir, now: time.Now,
		renew: map[string]time.Time{}}, nil
}

// Close removes the tokens.
func (p *Provider) Close() error { return os.RemoveAll(p.dir) }

// Config makes sure account exists and has a token, and returns a copy of
// the base configuration that authenticates as it (and with nothing else).
func (p *Provider) Config(ctx context.Context, account string) (*rest.Config, error) {
	if err := p.ensureAccount(ctx, account); err != nil {
		return nil, err
	}
	if err := p.refresh(ctx, account); err != nil {
		return nil, err
	}
	c := *p.base
	c.TLS.CertFile, c.TLS.KeyFile, c.TLS.CertData, c.TLS.KeyData = "", "", nil, nil
	c.BearerToken, c.BearerTokenFile = "", filepath.Join(p.dir, account)
	return &c, nil
}

func (p *Provider) ensureAccount(ctx context.Context, account string) error {
	sas := p.clients.ServiceAccounts.Namespace(Namespace)
	_, err := sas.Get(ctx, account, meta.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = sas.Create(ctx, &corev1.ServiceAccount{ObjectMeta: meta.ObjectMeta{Name: account, Namespace: Namespace}}, meta.WriteOptions{})
		if apierrors.IsAlreadyExists(err) {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("service account %s/%s: %w", Namespace, account, err)
	}
	return nil
}

// refresh requests a token for account and replaces its file.
func (p *Provider) refresh(ctx context.Context, account string) error {
	secs := int64(Lifetime / time.Second)
	req := &authnv1.TokenRequest{
		TypeMeta: meta.TypeMeta{APIVersion: "authentication.platform.io/v1", Kind: "TokenRequest"},
		Spec:     authnv1.TokenRequestSpec{ExpirationSeconds: &secs},
	}
	var out authnv1.TokenRequest
	err := p.rc.Post().Version("v1").Namespace(Namespace).Resource("serviceaccounts").Name(account).SubResource("token").
		Body(req).Do(ctx).Into(&out)
	if err != nil {
		return fmt.Errorf("token of service account %s/%s: %w", Namespace, account, err)
	}
	if out.Status.Token == "" {
		return fmt.Errorf("token of service account %s/%s: empty answer", Namespace, account)
	}
	tmp := filepath.Join(p.dir, "."+account)
	if err := os.WriteFile(tmp, []byte(out.Status.Token), 0o600); err != nil {
		return fmt.Errorf("write token: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(p.dir, account)); err != nil {
		return fmt.Errorf("write token: %w", err)
	}
	now := p.now()
	life := out.Status.ExpirationTimestamp.Sub(now)
	if life <= 0 {
		life = Lifetime
	}
	p.mu.Lock()
	p.renew[account] = now.Add(life * 4 / 5)
	p.mu.Unlock()
	p.lg.Info("Service account token issued", zap.String("account", account), zap.Time("expires", now.Add(life)))
	return nil
}

// Run replaces each token when due, until ctx ends.
func (p *Provider) Run(ctx context.Context) error {
	for {
		next := p.refreshDue(ctx)
		t := time.NewTimer(max(next.Sub(p.now()), 0))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// refreshDue refreshes the tokens that are due and returns when the next
// one is.
func (p *Provider) refreshDue(ctx context.Context) time.Time {
	now := p.now()
	next := now.Add(Lifetime)
	p.mu.Lock()
	var due []string
	for a, at := range p.renew {
		if !at.After(now) {
			due = append(due, a)
		} else if at.Before(next) {
			next = at
		}
	}
	p.mu.Unlock()
	for _, a := range due {
		if err := p.refresh(ctx, a); err != nil {
			if !errors.Is(err, context.Canceled) {
				p.lg.Warn("Service account token not refreshed, will retry", zap.String("account", a), zap.Error(err))
			}
			next = earlier(next, now.Add(retry))
			continue
		}
		p.mu.Lock()
		next = earlier(next, p.renew[a])
		p.mu.Unlock()
	}
	return next
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

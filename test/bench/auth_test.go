package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	rbacv1 "platform.io/client/api/rbac/v1"
	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/integration/framework"
)

// authClients, authWrites, authReads and authBindings size
// BenchmarkAuthCost: concurrent clients, operations per side (in rounds)
// and the RoleBindings of other users present on both servers.
const (
	authClients  = 64
	authWrites   = 3000
	authReads    = 6000
	authBindings = 10000
)

// Names BenchmarkAuthCost gives its users, role and namespace of lists.
const (
	authCertUser  = "bench-cert"
	authTokenUser = "bench-token"
	authToken     = "bench-token-0123456789abcdef"
	authGroup     = "bench-users"
	authRole      = "auth-bench"
	authListNS    = "auth-list"
	authListed    = 10 // ConfigMaps in authListNS
)

// BenchmarkAuthCost measures what authentication and authorization cost
// the secure port (issue 14): creates, gets and lists of ConfigMaps at 64
// clients through the staging protobuf client over HTTPS, against two
// in-process API servers that differ only in --authorization-mode:
// AlwaysAllow ("allow") and Node,RBAC ("rbac"). Both verify client
// certificates against --client-ca-file and tokens of --token-auth-file,
// and both hold 10,000 RoleBindings of other users, so the only difference
// is the authorizers. The users are in an ordinary group (not
// system:masters, which would skip authorization); one RoleBinding per
// namespace grants them what the benchmark does. Each side is a server
// and a credential (certificate or token); the sides take turns in rounds.
// It reports the rates, the CPU time of the whole process per operation
// (steadier on a shared machine) and the ratios rbac/allow for each
// credential.
func BenchmarkAuthCost(b *testing.B) {
	raiseFileLimit()
	dir := b.TempDir()
	ca, err := certs.NewCA("auth-bench-ca")
	if err != nil {
		b.Fatal(err)
	}
	client, err := certs.NewClient(ca, authCertUser, []string{authGroup})
	if err != nil {
		b.Fatal(err)
	}
	caFile, tokenFile := filepath.Join(dir, "ca.crt"), filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o600); err != nil {
		b.Fatal(err)
	}
	line := fmt.Sprintf("%s,%s,uid-bench-token,%s\n", authToken, authTokenUser, authGroup)
	if err := os.WriteFile(tokenFile, []byte(line), 0o600); err != nil {
		b.Fatal(err)
	}
	servers := map[string]*framework.Server{}
	for _, mode := range []struct {
		name  string
		modes []string
	}{{"allow", []string{options.ModeAlwaysAllow}}, {"rbac", []string{options.ModeNode, options.ModeRBAC}}} {
		s := startServer(b, func(o *options.Options) {
			o.Authn.ClientCAFile = caFile
			o.Authn.TokenAuthFile = tokenFile
			o.Authz.Modes = mode.modes
		})
		setupAuthPolicy(b, s)
		servers[mode.name] = s
	}
	var sides []*authSide
	for _, srv := range []string{"allow", "rbac"} {
		for _, cred := range []string{"cert", "token"} {
			cfg := &rest.Config{Host: servers[srv].SecureURL, QPS: -1, TLS: rest.TLSConfig{CAFile: servers[srv].CertFile}}
			if cred == "cert" {
				cfg.TLS.CertData, cfg.TLS.KeyData = client.CertPEM, client.KeyPEM
			} else {
				cfg.BearerToken = authToken
			}
			c, err := rest.NewClient(cfg)
			if err != nil {
				b.Fatal(err)
			}
			sd := &authSide{name: srv + "-" + cred, c: c}
			sd.waitAllowed(b)
			sd.checkAuthorizer(b, srv == "rbac")
			sides = append(sides, sd)
		}
	}
	fmt.Printf("authentication and authorization cost: %d clients, %d writes and %d reads per side in %d rounds, %d RoleBindings of other users; %s\n\n",
		authClients, authWrites, authReads, rounds, authBindings, stamp())
	fmt.Println("| operation | credential | AlwaysAllow ops/s | Node,RBAC ops/s | rbac/allow | AlwaysAllow CPU µs/op | Node,RBAC CPU µs/op | rbac/allow CPU | AlwaysAllow p50 ms | Node,RBAC p50 ms | AlwaysAllow p99 ms | Node,RBAC p99 ms |")
	fmt.Println("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, op := range []string{"create", "get", "list"} {
		b.Run(op, func(b *testing.B) {
			n := authReads
			if op == "create" {
				n = authWrites
			}
			got := map[string]*result{}
			cpu := map[string]time.Duration{}
			for _, sd := range sides {
				got[sd.name] = &result{}
			}
			for range b.N {
				for r := range rounds {
					order := append(slices.Clone(sides[r%len(sides):]), sides[:r%len(sides)]...)
					for _, sd := range order {
						lo, hi := r*n/rounds, (r+1)*n/rounds
						before := processCPU()
						got[sd.name].merge(sd.scenario(op, lo, hi))
						cpu[sd.name] += processCPU() - before
					}
				}
			}
			b.ReportMetric(0, "ns/op")
			perOp := map[string]float64{}
			for _, sd := range sides {
				res := got[sd.name]
				if res.errors > 0 {
					b.Errorf("%s: %d of %d operations failed; first: %v", sd.name, res.errors, res.errors+res.ops, res.firstErr)
				}
				perOp[sd.name] = float64(cpu[sd.name].Microseconds()) / float64(max(res.ops, 1))
				b.ReportMetric(res.opsPerSec(), sd.name+"-ops/s")
				b.ReportMetric(perOp[sd.name], sd.name+"-cpu-us/op")
			}
			for _, cred := range []string{"cert", "token"} {
				allow, rbac := got["allow-"+cred], got["rbac-"+cred]
				ca, cr := perOp["allow-"+cred], perOp["rbac-"+cred]
				if allow.opsPerSec() > 0 {
					b.ReportMetric(rbac.opsPerSec()/allow.opsPerSec(), cred+"-rbac/allow")
				}
				if ca > 0 {
					b.ReportMetric(cr/ca, cred+"-rbac/allow-cpu")
				}
				fmt.Printf("| %s | %s | %.0f | %.0f | %.0f%% | %.0f | %.0f | %.0f%% | %.1f | %.1f | %.1f | %.1f |\n", op, cred,
					allow.opsPerSec(), rbac.opsPerSec(), 100*rbac.opsPerSec()/allow.opsPerSec(), ca, cr, 100*cr/ca,
					allow.percentile(0.50), rbac.percentile(0.50), allow.percentile(0.99), rbac.percentile(0.99))
			}
		})
	}
}

// setupAuthPolicy gives s, through its insecure port, the benchmark's
// policy: a ClusterRole to create, get and list ConfigMaps, bound to the
// benchmark's users in "default" and authListNS, and authBindings
// RoleBindings of it to other users in "default"; authListed ConfigMaps in
// authListNS for the lists.
func setupAuthPolicy(b *testing.B, s *framework.Server) {
	b.Helper()
	s.Do(b, http.MethodPost, "/api/v1/namespaces", map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": authListNS},
	}).Expect(b, http.StatusCreated)
	c := s.RESTClient(b)
	role := &rbacv1.ClusterRole{
		TypeMeta:   meta.TypeMeta{APIVersion: rbacv1.SchemeGroupVersion.String(), Kind: "ClusterRole"},
		ObjectMeta: meta.ObjectMeta{Name: authRole},
		Rules:      []rbacv1.PolicyRule{{Verbs: []string{"create", "get", "list"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}},
	}
	ctx := context.Background()
	if err := c.Post().Group(rbacv1.GroupName).Version("v1").Resource("clusterroles").Body(role).Do(ctx).Error(); err != nil {
		b.Fatalf("create ClusterRole: %v", err)
	}
	binding := func(ns, name string, subjects ...rbacv1.Subject) *rbacv1.RoleBinding {
		return &rbacv1.RoleBinding{
			TypeMeta:   meta.TypeMeta{APIVersion: rbacv1.SchemeGroupVersion.String(), Kind: "RoleBinding"},
			ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
			Subjects:   subjects,
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: authRole},
		}
	}
	user := func(name string) rbacv1.Subject {
		return rbacv1.Subject{Kind: "User", APIGroup: rbacv1.GroupName, Name: name}
	}
	create := func(ctx context.Context, rb *rbacv1.RoleBinding) error {
		return c.Post().Group(rbacv1.GroupName).Version("v1").Namespace(rb.Namespace).Resource("rolebindings").Body(rb).Do(ctx).Error()
	}
	for _, ns := range []string{"default", authListNS} {
		if err := create(ctx, binding(ns, authRole, user(authCertUser), user(authTokenUser))); err != nil {
			b.Fatalf("create RoleBinding of the benchmark's users in %s: %v", ns, err)
		}
	}
	res := run(authClients, authBindings, 5*time.Minute, func(ctx context.Context, i int) error {
		name := fmt.Sprintf("other-%05d", i)
		return create(ctx, binding("default", name, user(name)))
	})
	if res.errors > 0 || res.ops != authBindings {
		b.Fatalf("created %d of %d RoleBindings; first error: %v", res.ops, authBindings, res.firstErr)
	}
	for i := range authListed {
		cm := &corev1.ConfigMap{
			TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: meta.ObjectMeta{Name: fmt.Sprintf("listed-%02d", i), Namespace: authListNS},
			Data:       map[string]string{"payload": strings.Repeat("x", 1000)},
		}
		if err := c.Post().Version("v1").Namespace(authListNS).Resource("configmaps").Body(cm).Do(ctx).Error(); err != nil {
			b.Fatalf("create %s: %v", cm.Name, err)
		}
	}
}

// authSide is one server and credential of BenchmarkAuthCost.
type authSide struct {
	name string
	c    *rest.Client
}

func (sd *authSide) objectName(i int) string { return fmt.Sprintf("auth-%s-%06d", sd.name, i) }

// waitAllowed waits until the side may list ConfigMaps in authListNS: the
// authorizer's view of the bindings catches up with the store.
func (sd *authSide) waitAllowed(b *testing.B) {
	b.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := sd.c.Get().Version("v1").Namespace(authListNS).Resource("configmaps").Do(context.Background()).Error()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%s: not allowed to list ConfigMaps within 30s: %v", sd.name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkAuthorizer makes sure the side is authorized as the benchmark
// means: a list of Secrets, which the user's role does not grant, is
// forbidden under Node,RBAC (the user is neither a master nor a node) and
// allowed under AlwaysAllow.
func (sd *authSide) checkAuthorizer(b *testing.B, rbac bool) {
	b.Helper()
	res := sd.c.Get().Version("v1").Namespace("default").Resource("secrets").Do(context.Background())
	want := http.StatusOK
	if rbac {
		want = http.StatusForbidden
	}
	if res.StatusCode() != want {
		b.Fatalf("%s: listing Secrets gave HTTP %d (%v), want %d", sd.name, res.StatusCode(), res.Error(), want)
	}
}

// scenario performs operations lo..hi-1 of op: creates of ~1 KiB
// ConfigMaps in "default", gets of those, or lists of authListNS.
func (sd *authSide) scenario(op string, lo, hi int) result {
	payload := strings.Repeat("x", 1000)
	return run(authClients, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
		i := lo + j
		switch op {
		case "create":
			cm := &corev1.ConfigMap{
				TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: meta.ObjectMeta{Name: sd.objectName(i), Namespace: "default"},
				Data:       map[string]string{"seq": fmt.Sprint(i), "payload": payload},
			}
			return sd.c.Post().Version("v1").Namespace("default").Resource("configmaps").Body(cm).Do(ctx).Error()
		case "get":
			var out corev1.ConfigMap
			return sd.c.Get().Version("v1").Namespace("default").Resource("configmaps").Name(sd.objectName(i % authWrites)).Do(ctx).Into(&out)
		default:
			var out corev1.ConfigMapList
			if err := sd.c.Get().Version("v1").Namespace(authListNS).Resource("configmaps").Do(ctx).Into(&out); err != nil {
				return err
			}
			if len(out.Items) != authListed {
				return fmt.Errorf("listed %d ConfigMaps, want %d", len(out.Items), authListed)
			}
			return nil
		}
	})
}

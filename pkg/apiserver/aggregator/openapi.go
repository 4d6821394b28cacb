package aggregator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/endpoints"
)

// openAPIV3 is the prefix of the OpenAPI v3 documents.
const openAPIV3 = "/openapi/v3"

// OpenAPIHandler adds the delegated group versions to the OpenAPI v3
// documents that next (the server's own) serves: /openapi/v3 also lists
// "apis/<group>/<version>" of each Available delegated group version, and
// that document is proxied to its server as any other request of it is.
// /openapi/v2 is next's document with the v2 documents of the servers of
// Available delegated group versions merged in (Config.OpenAPIV2), as
// fetched after each passed check. Other paths are next's alone.
func (a *Aggregator) OpenAPIHandler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimSuffix(r.URL.Path, "/")
		if path == openAPIV3 && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			if paths := a.openAPIPaths(); len(paths) > 0 {
				a.serveOpenAPIIndex(w, r, next, paths)
				return
			}
		}
		if path == "/openapi/v2" && a.cfg.OpenAPIV2 != nil && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			if extras := a.openAPIV2Documents(); len(extras) > 0 {
				a.cfg.OpenAPIV2.ServeV2With(w, r, extras)
				return
			}
		}
		if rest, ok := strings.CutPrefix(path, openAPIV3+"/apis/"); ok {
			group, version, _ := strings.Cut(rest, "/")
			if b := a.lookup(group, version); b != nil && b.svc.Spec.Service != nil && !a.cfg.Local.ServesGroup(group) {
				a.proxy(w, r, b)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// openAPIV2Documents returns the v2 documents of the Available delegated
// group versions' servers, by APIService name.
func (a *Aggregator) openAPIV2Documents() [][]byte {
	remote := a.remote()
	sort.Slice(remote, func(i, j int) bool { return remote[i].Name < remote[j].Name })
	a.mu.RLock()
	defer a.mu.RUnlock()
	var out [][]byte
	for _, s := range remote {
		if doc := a.openAPIV2[s.Name]; doc != nil && s.IsAvailable() {
			out = append(out, doc)
		}
	}
	return out
}

// openAPIPaths returns the index keys of the Available delegated group
// versions, sorted.
func (a *Aggregator) openAPIPaths() []string {
	var out []string
	for _, s := range a.remote() {
		if s.IsAvailable() {
			out = append(out, "apis/"+s.Spec.Group+"/"+s.Spec.Version)
		}
	}
	sort.Strings(out)
	return out
}

// serveOpenAPIIndex writes next's /openapi/v3 index with paths added. The
// delegated documents carry no hash: their servers' documents change
// without the API server knowing, so clients must not keep them.
func (a *Aggregator) serveOpenAPIIndex(w http.ResponseWriter, r *http.Request, next http.Handler, paths []string) {
	local := r.Clone(r.Context())
	local.Method = http.MethodGet
	local.Header.Del("Accept-Encoding")
	local.Header.Del("If-None-Match")
	rec := &recorder{header: http.Header{}, code: http.StatusOK}
	next.ServeHTTP(rec, local)
	var index struct {
		Paths map[string]map[string]string `json:"paths"`
	}
	if rec.code != http.StatusOK || json.Unmarshal(rec.body.Bytes(), &index) != nil || index.Paths == nil {
		a.lg.Warn("cannot add aggregated documents to the OpenAPI v3 index", zap.Int("code", rec.code))
		next.ServeHTTP(w, r)
		return
	}
	for _, p := range paths {
		index.Paths[p] = map[string]string{"serverRelativeURL": openAPIV3 + "/" + p}
	}
	endpoints.WriteDiscovery(w, r, index)
}

// recorder keeps a response in memory.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(code int)        { r.code = code }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }

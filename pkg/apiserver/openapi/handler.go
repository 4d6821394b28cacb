package openapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"platform.io/client/api/meta"
)

// Media types of the served documents. kubectl asks for the "@" spelling of
// the protobuf types; the "." spelling is what servers answer with.
const (
	mimeV2Proto           = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
	mimeV2ProtoDeprecated = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
	mimeV3Proto           = "application/com.github.proto-openapi.spec.v3.v1.0+protobuf"
	mimeV3ProtoDeprecated = "application/com.github.proto-openapi.spec.v3@v1.0+protobuf"
)

// Handler serves /openapi/v2, /openapi/v3 and /openapi/v3/<group version>.
func (s *Spec) Handler() http.Handler {
	return http.HandlerFunc(s.serveHTTP)
}

func (s *Spec) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeStatus(w, http.StatusMethodNotAllowed, meta.StatusReasonMethodNotAllowed, "the OpenAPI documents are read-only")
		return
	}
	switch path := strings.TrimSuffix(r.URL.Path, "/"); {
	case path == "/openapi/v2":
		s.serveDocument(w, r, s.mergeV2(nil), mimeV2Proto, mimeV2Proto, mimeV2ProtoDeprecated)
	case path == "/openapi/v3":
		doc, err := s.index()
		if err != nil {
			writeStatus(w, http.StatusInternalServerError, meta.StatusReasonInternalError, err.Error())
			return
		}
		s.serveDocument(w, r, doc, "")
	case strings.HasPrefix(path, "/openapi/v3/"):
		key := strings.TrimPrefix(path, "/openapi/v3/")
		doc := s.v3[key]
		if doc == nil {
			var err error
			if doc, err = s.customV3(key); err != nil {
				writeStatus(w, http.StatusInternalServerError, meta.StatusReasonInternalError, err.Error())
				return
			}
		}
		if doc == nil {
			writeStatus(w, http.StatusNotFound, meta.StatusReasonNotFound, "no OpenAPI v3 document for "+key)
			return
		}
		if hash := r.URL.Query().Get("hash"); hash != "" {
			if hash != doc.hash {
				http.Redirect(w, r, "/openapi/v3/"+key+"?hash="+doc.hash, http.StatusMovedPermanently)
				return
			}
			// The URL names this content for good: let clients keep it.
			w.Header().Set("Cache-Control", "public, immutable")
			w.Header().Set("Expires", time.Now().AddDate(1, 0, 0).UTC().Format(http.TimeFormat))
		}
		s.serveDocument(w, r, doc, mimeV3Proto, mimeV3Proto, mimeV3ProtoDeprecated)
	default:
		writeStatus(w, http.StatusNotFound, meta.StatusReasonNotFound, "the server could not find the requested resource")
	}
}

// serveDocument writes doc as JSON or, when Accept prefers one of
// protoTypes, as protobuf answered with Content-Type protoType.
func (s *Spec) serveDocument(w http.ResponseWriter, r *http.Request, doc *document, protoType string, protoTypes ...string) {
	h := w.Header()
	h.Add("Vary", "Accept")
	asProto, ok := negotiate(r.Header.Get("Accept"), protoTypes)
	if !ok {
		writeStatus(w, http.StatusNotAcceptable, meta.StatusReasonNotAcceptable,
			"only application/json"+strings.Join(append([]string{""}, protoTypes...), ", ")+" are served")
		return
	}
	body, gz, contentType := doc.json, doc.gzJSON, "application/json"
	if asProto {
		var err error
		if body, err = doc.proto.get(); err != nil {
			writeStatus(w, http.StatusInternalServerError, meta.StatusReasonInternalError, err.Error())
			return
		}
		gz, contentType = doc.gzProto, protoType
	}
	etag := strconv.Quote(doc.hash)
	h.Set("Content-Type", contentType)
	h.Set("Etag", etag)
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache, private")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && (match == etag || match == "*") {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Add("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		if zipped, err := gz.get(); err == nil {
			body = zipped
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// negotiate picks, from an Accept header, protobuf (when it names one of
// protoTypes) or JSON (application/json and wildcards); the first
// acceptable entry with a non-zero quality wins. An empty header means JSON.
func negotiate(accept string, protoTypes []string) (asProto, ok bool) {
	if strings.TrimSpace(accept) == "" {
		return false, true
	}
	for _, clause := range strings.Split(accept, ",") {
		mt, params, _ := strings.Cut(clause, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
		if zeroQuality(params) {
			continue
		}
		for _, p := range protoTypes {
			if mt == p {
				return true, true
			}
		}
		switch mt {
		case "application/json", "application/*", "*/*":
			return false, true
		}
	}
	return false, false
}

func zeroQuality(params string) bool {
	for _, p := range strings.Split(params, ";") {
		if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
			if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q == 0 {
				return true
			}
		}
	}
	return false
}

// acceptsGzip reports whether Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, line := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(line, ",") {
			coding, params, _ := strings.Cut(part, ";")
			if strings.EqualFold(strings.TrimSpace(coding), "gzip") && !zeroQuality(params) {
				return true
			}
		}
	}
	return false
}

// writeStatus writes a Status error body.
func writeStatus(w http.ResponseWriter, code int, reason meta.StatusReason, msg string) {
	st := meta.Status{
		TypeMeta: meta.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   meta.StatusFailure, Message: msg, Reason: reason, Code: int32(code),
	}
	body, _ := json.Marshal(st)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Etag")
	w.Header().Del("Cache-Control")
	w.Header().Del("Expires")
	w.WriteHeader(code)
	w.Write(body)
}

package endpoints

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// RequestInfo is what a resource request asks for, parsed from its path and method.
type RequestInfo struct {
	// IsResourceRequest is false for discovery and other non-resource paths.
	IsResourceRequest bool
	// Verb is get, list, watch, create, update, patch, delete or deletecollection.
	Verb        string
	APIPrefix   string // "api" or "apis"
	APIGroup    string
	APIVersion  string
	Namespace   string
	Resource    string
	Subresource string
	Name        string
	// Parts are the path segments after the group version.
	Parts []string
}

// namespaceSubresources are the subresources of a namespace object itself,
// which must not be read as a resource inside the namespace.
var namespaceSubresources = map[string]bool{"status": true, "finalize": true}

type requestInfoKey struct{}

// WithRequestInfo parses each request's RequestInfo once, for the
// filters and handlers after it to read with RequestInfoFor rather than
// parse the path and query again each. The path must not change after it.
func WithRequestInfo(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, ParseRequestInfo(r))))
	})
}

// RequestInfoFor returns the RequestInfo WithRequestInfo parsed for r, or
// parses it when r did not pass that filter. It is shared: callers must
// not modify it.
func RequestInfoFor(r *http.Request) *RequestInfo {
	if info, ok := r.Context().Value(requestInfoKey{}).(*RequestInfo); ok {
		return info
	}
	return ParseRequestInfo(r)
}

// ParseRequestInfo reads a request path of the forms
// /api/v1/..., /apis/{group}/{version}/..., with an optional watch/ and
// namespaces/{ns}/ before the resource.
func ParseRequestInfo(r *http.Request) *RequestInfo {
	info := &RequestInfo{}
	parts := splitPath(r.URL.Path)
	if len(parts) == 0 || (parts[0] != "api" && parts[0] != "apis") || slices.Contains(parts, "") {
		// An empty segment ("//") is not a canonical path: reading it
		// would shift every name one place (found by FuzzRequestInfo).
		return info
	}
	info.APIPrefix, parts = parts[0], parts[1:]
	if info.APIPrefix == "apis" {
		if len(parts) == 0 {
			return info
		}
		info.APIGroup, parts = parts[0], parts[1:]
	}
	if len(parts) == 0 {
		return info
	}
	info.APIVersion, parts = parts[0], parts[1:]
	if len(parts) == 0 {
		return info
	}
	watchPath := parts[0] == "watch"
	if watchPath {
		parts = parts[1:]
	}
	if len(parts) == 0 {
		// A bare .../watch names no resource (found by FuzzRequestInfo):
		// not a resource request, so it is routed, and answered, as an
		// unknown path.
		return info
	}
	info.IsResourceRequest = true
	if len(parts) > 1 && parts[0] == "namespaces" {
		info.Namespace = parts[1]
		if len(parts) > 2 && !namespaceSubresources[parts[2]] {
			parts = parts[2:]
		}
	}
	info.Parts = parts
	if len(parts) > 0 {
		info.Resource = parts[0]
	}
	if len(parts) > 1 {
		info.Name = parts[1]
	}
	if len(parts) > 2 {
		info.Subresource = parts[2]
	}
	if info.Resource == "namespaces" {
		info.Namespace = ""
	}
	info.Verb = verbFor(r, info, watchPath)
	return info
}

func verbFor(r *http.Request, info *RequestInfo, watchPath bool) string {
	switch r.Method {
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	case http.MethodPatch:
		return "patch"
	case http.MethodDelete:
		if info.Name == "" {
			return "deletecollection"
		}
		return "delete"
	case http.MethodGet, http.MethodHead:
		switch {
		case watchPath:
			return "watch"
		case info.Name != "":
			return "get"
		case isTrue(r.URL.Query().Get("watch")):
			return "watch"
		default:
			return "list"
		}
	}
	return strings.ToLower(r.Method)
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// isTrue reads a boolean query parameter as strconv.ParseBool does; a
// value it cannot read is false here and refused where the verb checks its
// parameters (boolParam).
func isTrue(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

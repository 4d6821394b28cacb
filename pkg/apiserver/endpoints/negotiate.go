package endpoints

import (
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"

	apierrors "platform.io/client/api/errors"
)

// mediaRange is one entry of an Accept header.
type mediaRange struct {
	typ, sub string
	params   map[string]string
	q        float64
}

// parseAccept returns the acceptable media ranges, best first (by q, then
// by order of appearance). An absent header accepts anything.
func parseAccept(h string) []mediaRange {
	if strings.TrimSpace(h) == "" {
		return []mediaRange{{typ: "*", sub: "*", q: 1}}
	}
	var out []mediaRange
	for _, part := range strings.Split(h, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		typ, sub, _ := strings.Cut(mt, "/")
		r := mediaRange{typ: typ, sub: sub, params: params, q: 1}
		if qs, ok := params["q"]; ok {
			if q, err := strconv.ParseFloat(qs, 64); err == nil {
				r.q = q
			}
			delete(params, "q")
		}
		if r.q > 0 {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].q > out[j].q })
	return out
}

// format is a response encoding chosen by negotiation.
type format int

const (
	formatJSON format = iota
	formatProtobuf
	formatTable
)

// negotiated is the outcome of negotiation: the format, the exact media
// type to answer with, and for tables the requested group and version.
type negotiated struct {
	format       format
	mediaType    string
	tableGroup   string
	tableVersion string
}

// Media types the server speaks.
const (
	mediaProtobuf         = "application/vnd.platform.protobuf"
	mediaUpstreamProtobuf = "application/vnd.kubernetes.protobuf"
)

// tableGroups are the API groups a Table may be asked for in: ours, and
// upstream's, which stock clients ask for.
var tableGroups = map[string]bool{"meta.platform.io": true, "meta.k8s.io": true}

// negotiate picks the response format from Accept. tables says whether the
// request may be answered with a Table (gets and lists); protobuf whether
// the object has a protobuf encoding. Nothing acceptable is a 406.
func negotiate(r *http.Request, tables, protobuf bool) (negotiated, error) {
	ranges := parseAccept(r.Header.Get("Accept"))
	for _, m := range ranges {
		if n, ok := match(m, tables, protobuf); ok {
			return n, nil
		}
	}
	supported := []string{contentTypeJSON}
	if protobuf {
		supported = append(supported, mediaProtobuf)
	}
	if tables {
		supported = append(supported, "application/json;as=Table;g=meta.platform.io;v=v1")
	}
	return negotiated{}, apierrors.NewNotAcceptable(fmt.Sprintf("only the following media types are accepted: %s", strings.Join(supported, ", ")))
}

func match(m mediaRange, tables, protobuf bool) (negotiated, bool) {
	full := m.typ + "/" + m.sub
	switch {
	case m.params["as"] != "":
		if m.params["as"] != "Table" || !tables || full != contentTypeJSON || !tableGroups[m.params["g"]] {
			return negotiated{}, false
		}
		switch v := m.params["v"]; v {
		case "v1", "v1beta1":
			return negotiated{format: formatTable, mediaType: contentTypeJSON, tableGroup: m.params["g"], tableVersion: v}, true
		}
		return negotiated{}, false
	case full == contentTypeJSON || full == "*/*" || full == "application/*":
		return negotiated{format: formatJSON, mediaType: contentTypeJSON}, true
	case protobuf && (full == mediaProtobuf || full == mediaUpstreamProtobuf):
		return negotiated{format: formatProtobuf, mediaType: full}, true
	}
	return negotiated{}, false
}

package openapi

import (
	"reflect"
	"slices"
	"strings"
	"unicode"

	"platform.io/client/api/meta"
)

// apiModulePrefix starts the package path of every API type.
const apiModulePrefix = "platform.io/client/api/"

// defName names the definition of a named Go type after its package path:
// platform.io/client/api/core/v1.Pod is "io.platform.api.core.v1.Pod". The
// meta package, which holds meta.platform.io/v1, gets its version appended.
func defName(t reflect.Type) string {
	pkg := t.PkgPath()
	var parts []string
	if rest, ok := strings.CutPrefix(pkg, apiModulePrefix); ok {
		parts = append([]string{"io", "platform", "api"}, strings.Split(rest, "/")...)
		if rest == "meta" {
			parts = append(parts, "v1")
		}
	} else {
		segs := strings.Split(pkg, "/")
		host := strings.Split(segs[0], ".")
		for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
			host[i], host[j] = host[j], host[i]
		}
		parts = append(host, segs[1:]...)
	}
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(p, "-", "_")
	}
	return strings.Join(append(parts, t.Name()), ".")
}

// docKey is the key of a type's doc in the generated docs map.
func docKey(t reflect.Type) string { return t.PkgPath() + "." + t.Name() }

// gvPath is a group version's URL path without the leading slash:
// "api/v1" for the core group, "apis/apps/v1" otherwise. It also keys the
// OpenAPI v3 documents.
func gvPath(gv meta.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}

// groupWord is the group as it appears in operation ids and tags: "core"
// for the core group; the first DNS label of a built-in group
// ("coordination"); every label of another group (a custom resource's),
// joined in camel case as upstream does: "stableExampleCom".
func groupWord(group string) string {
	if group == "" {
		return "core"
	}
	for _, suffix := range []string{".platform.io", ".k8s.io"} {
		if g, ok := strings.CutSuffix(group, suffix); ok {
			first, _, _ := strings.Cut(g, ".")
			return first
		}
	}
	labels := strings.Split(group, ".")
	for i := 1; i < len(labels); i++ {
		if labels[i] != "" {
			labels[i] = strings.ToUpper(labels[i][:1]) + labels[i][1:]
		}
	}
	return strings.Join(labels, "")
}

// customDefName names the definition of a custom resource's kind as
// upstream does: the group reversed, the version, the kind
// ("com.example.stable.v1.CronTab").
func customDefName(gv meta.GroupVersion, kind string) string {
	labels := strings.Split(gv.Group, ".")
	slices.Reverse(labels)
	return strings.Join(append(labels, gv.Version, kind), ".")
}

// opPrefix is the group-version part of operation ids: "CoreV1", "AppsV1",
// "BatchV1beta1".
func opPrefix(gv meta.GroupVersion) string {
	return camel(groupWord(gv.Group)) + camel(gv.Version)
}

// tag groups a group version's operations: "core_v1", "apps_v1".
func tag(gv meta.GroupVersion) string {
	return strings.ReplaceAll(groupWord(gv.Group), "-", "_") + "_" + gv.Version
}

// camel upper-cases the first letter of each dash-separated word and drops the dashes.
func camel(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "-") {
		if w == "" {
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

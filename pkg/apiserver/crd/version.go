package crd

import (
	"sort"
	"strconv"
	"strings"
)

// kubeVersion is a version name of the form v<major>[(alpha|beta)<minor>].
type kubeVersion struct {
	ok           bool
	major, minor int
	stability    int // 2 GA, 1 beta, 0 alpha
}

func parseVersion(v string) kubeVersion {
	rest, found := strings.CutPrefix(v, "v")
	if !found {
		return kubeVersion{}
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	major, err := strconv.Atoi(rest[:i])
	if err != nil || major == 0 || rest[0] == '0' {
		return kubeVersion{}
	}
	rest = rest[i:]
	if rest == "" {
		return kubeVersion{ok: true, major: major, stability: 2}
	}
	stability := 0
	switch {
	case strings.HasPrefix(rest, "beta"):
		stability, rest = 1, rest[len("beta"):]
	case strings.HasPrefix(rest, "alpha"):
		rest = rest[len("alpha"):]
	default:
		return kubeVersion{}
	}
	minor, err := strconv.Atoi(rest)
	if err != nil || minor == 0 || rest[0] == '0' {
		return kubeVersion{}
	}
	return kubeVersion{ok: true, major: major, minor: minor, stability: stability}
}

// versionLess orders versions as upstream's discovery does: kube-like
// versions first, GA before beta before alpha, higher major and minor
// first; the others after them, alphabetically.
func versionLess(a, b string) bool {
	va, vb := parseVersion(a), parseVersion(b)
	switch {
	case va.ok != vb.ok:
		return va.ok
	case !va.ok:
		return a < b
	case va.stability != vb.stability:
		return va.stability > vb.stability
	case va.major != vb.major:
		return va.major > vb.major
	}
	return va.minor > vb.minor
}

// sortVersions sorts names by priority, the preferred first.
func sortVersions(names []string) {
	sort.SliceStable(names, func(i, j int) bool { return versionLess(names[i], names[j]) })
}

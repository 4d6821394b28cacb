package validation

import "strings"

// Hand-written matchers of the name patterns of names.go, anchored at both
// ends as the patterns are used.

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || 'A' <= c && c <= 'Z' }

// isDNS1123Label matches dns1123LabelFmt.
func isDNS1123Label(v string) bool {
	if v == "" || !isLowerAlnum(v[0]) || !isLowerAlnum(v[len(v)-1]) {
		return false
	}
	for i := 1; i < len(v)-1; i++ {
		if c := v[i]; c != '-' && !isLowerAlnum(c) {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain matches dns1123LabelFmt(\.dns1123LabelFmt)*.
func isDNS1123Subdomain(v string) bool {
	for {
		label, rest, more := strings.Cut(v, ".")
		if !isDNS1123Label(label) {
			return false
		}
		if !more {
			return true
		}
		v = rest
	}
}

// isDNS1035Label matches dns1035LabelFmt.
func isDNS1035Label(v string) bool {
	return v != "" && 'a' <= v[0] && v[0] <= 'z' && isDNS1123Label(v)
}

// isQualifiedName matches qualifiedNameFmt.
func isQualifiedName(v string) bool {
	if v == "" || !isAlnum(v[0]) || !isAlnum(v[len(v)-1]) {
		return false
	}
	for i := 1; i < len(v)-1; i++ {
		if c := v[i]; c != '-' && c != '_' && c != '.' && !isAlnum(c) {
			return false
		}
	}
	return true
}

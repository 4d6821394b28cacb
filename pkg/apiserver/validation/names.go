package validation

import (
	"fmt"
	"strings"
)

const (
	dns1123LabelFmt  = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelFmt  = "[a-z]([-a-z0-9]*[a-z0-9])?"
	qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt    = "(" + qualifiedNameFmt + ")?"

	// DNS1123LabelMaxLength is the longest allowed DNS label.
	DNS1123LabelMaxLength = 63
	// DNS1123SubdomainMaxLength is the longest allowed DNS subdomain.
	DNS1123SubdomainMaxLength = 253
	// QualifiedNameMaxLength is the longest name part of a label key.
	QualifiedNameMaxLength = 63
	// LabelValueMaxLength is the longest label value.
	LabelValueMaxLength = 63
)

// The patterns above are matched by hand (matchers.go): every write
// checks its name, labels and annotation keys, and regexp matching was a
// visible share of a create's CPU. names_test.go checks the matchers
// against the patterns.

// NameFunc checks an object name; it returns human-readable problems, none if valid.
type NameFunc func(name string) []string

// IsDNS1123Label checks a lowercase RFC 1123 label (namespaces, container names).
func IsDNS1123Label(v string) []string {
	var errs []string
	if len(v) > DNS1123LabelMaxLength {
		errs = append(errs, maxLen(DNS1123LabelMaxLength))
	}
	if !isDNS1123Label(v) {
		errs = append(errs, "must be a lowercase RFC 1123 label: lowercase letters, digits and '-', starting and ending with a letter or digit (for example 'my-name'; pattern '"+dns1123LabelFmt+"')")
	}
	return errs
}

// IsDNS1123Subdomain checks a lowercase RFC 1123 subdomain (most object names).
func IsDNS1123Subdomain(v string) []string {
	var errs []string
	if len(v) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLen(DNS1123SubdomainMaxLength))
	}
	if !isDNS1123Subdomain(v) {
		errs = append(errs, "must be a lowercase RFC 1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (for example 'example.com'; pattern '"+dns1123LabelFmt+"(\\."+dns1123LabelFmt+")*')")
	}
	return errs
}

// IsDNS1035Label checks an RFC 1035 label (service names): it must start with a letter.
func IsDNS1035Label(v string) []string {
	var errs []string
	if len(v) > DNS1123LabelMaxLength {
		errs = append(errs, maxLen(DNS1123LabelMaxLength))
	}
	if !isDNS1035Label(v) {
		errs = append(errs, "must be an RFC 1035 label: lowercase letters, digits and '-', starting with a letter and ending with a letter or digit (for example 'my-name'; pattern '"+dns1035LabelFmt+"')")
	}
	return errs
}

// IsPathSegmentName checks a name that must only be usable as a URL path segment.
func IsPathSegmentName(v string) []string {
	var errs []string
	if v == "." || v == ".." {
		errs = append(errs, fmt.Sprintf("may not be %q", v))
	}
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(v, bad) {
			errs = append(errs, fmt.Sprintf("may not contain %q", bad))
		}
	}
	return errs
}

// IsQualifiedName checks a label or annotation key: an optional DNS subdomain prefix and '/', then a name.
func IsQualifiedName(v string) []string {
	var errs []string
	name := v
	if prefix, rest, ok := strings.Cut(v, "/"); ok {
		if prefix == "" {
			errs = append(errs, "prefix part must not be empty")
		} else {
			for _, e := range IsDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+e)
			}
		}
		name = rest
	}
	switch {
	case name == "":
		errs = append(errs, "name part must not be empty")
	case len(name) > QualifiedNameMaxLength:
		errs = append(errs, "name part "+maxLen(QualifiedNameMaxLength))
	}
	if name != "" && !isQualifiedName(name) {
		errs = append(errs, "name part must consist of letters, digits, '-', '_' or '.', starting and ending with a letter or digit (for example 'MyName', 'my.name' or '123-abc'; pattern '"+qualifiedNameFmt+"')")
	}
	return errs
}

// IsLabelValue checks a label value: empty, or up to 63 characters of a qualified name's alphabet.
func IsLabelValue(v string) []string {
	var errs []string
	if len(v) > LabelValueMaxLength {
		errs = append(errs, maxLen(LabelValueMaxLength))
	}
	if !(v == "" || isQualifiedName(v)) {
		errs = append(errs, "a label value must be empty or consist of letters, digits, '-', '_' or '.', starting and ending with a letter or digit (pattern '"+labelValueFmt+"')")
	}
	return errs
}

func maxLen(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

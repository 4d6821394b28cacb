package labels

import (
	"fmt"
	"strings"
)

const (
	// maxNameLength bounds the name part of a key and every value.
	maxNameLength = 63
	// maxPrefixLength bounds the DNS subdomain prefix of a key.
	maxPrefixLength = 253
)

// ValidateKey reports whether key is a valid label key: a name of at most 63
// characters, optionally preceded by a DNS-1123 subdomain and a '/'.
func ValidateKey(key string) error {
	name := key
	if i := strings.IndexByte(key, '/'); i >= 0 {
		prefix := key[:i]
		name = key[i+1:]
		if strings.IndexByte(name, '/') >= 0 {
			return fmt.Errorf("invalid label key %q: at most one '/' may separate prefix and name", key)
		}
		if err := checkPrefix(prefix); err != nil {
			return fmt.Errorf("invalid label key %q: %v", key, err)
		}
	}
	if err := checkName(name, false); err != nil {
		return fmt.Errorf("invalid label key %q: name part %v", key, err)
	}
	return nil
}

// ValidateValue reports whether value is a valid label value: empty, or at
// most 63 characters of the name alphabet that start and end alphanumeric.
func ValidateValue(value string) error {
	if err := checkName(value, true); err != nil {
		return fmt.Errorf("invalid label value %q: %v", value, err)
	}
	return nil
}

// checkName validates the name part of a key, or a value when allowEmpty.
func checkName(s string, allowEmpty bool) error {
	if s == "" {
		if allowEmpty {
			return nil
		}
		return fmt.Errorf("must not be empty")
	}
	if len(s) > maxNameLength {
		return fmt.Errorf("must be no more than %d characters, has %d", maxNameLength, len(s))
	}
	if !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return fmt.Errorf("must start and end with an alphanumeric character")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return fmt.Errorf("may contain only alphanumerics, '-', '_' and '.', found %q", c)
		}
	}
	return nil
}

// checkPrefix validates the prefix of a key as a DNS-1123 subdomain:
// dot-separated labels of lowercase alphanumerics and '-', each starting and
// ending alphanumeric, at most 253 characters in all.
func checkPrefix(p string) error {
	if p == "" {
		return fmt.Errorf("prefix before '/' must not be empty")
	}
	if len(p) > maxPrefixLength {
		return fmt.Errorf("prefix must be no more than %d characters, has %d", maxPrefixLength, len(p))
	}
	for _, part := range strings.Split(p, ".") {
		if part == "" || !isLowerAlnum(part[0]) || !isLowerAlnum(part[len(part)-1]) {
			return fmt.Errorf("prefix %q must be a DNS subdomain: dot-separated parts that start and end with a lowercase alphanumeric", p)
		}
		for i := 0; i < len(part); i++ {
			if !isLowerAlnum(part[i]) && part[i] != '-' {
				return fmt.Errorf("prefix %q must be a DNS subdomain: only lowercase alphanumerics, '-' and '.' are allowed", p)
			}
		}
	}
	return nil
}

func isLowerAlnum(c byte) bool {
	return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9')
}

func isAlnum(c byte) bool {
	return isLowerAlnum(c) || ('A' <= c && c <= 'Z')
}

package corevalidation

import (
	"bytes"
	"maps"
	"regexp"
	"strings"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// MaxKeyLength bounds a config map or secret key.
const MaxKeyLength = 253

// MaxDataSize bounds the total size of a config map's or secret's values.
const MaxDataSize = 1 << 20

// ImmutableMsg is the detail of a change refused because the object is
// marked immutable.
const ImmutableMsg = "may not be changed while `immutable` is true"

var configMapKeyRe = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)

// IsConfigMapKey checks a key of a config map or secret: it becomes a file
// name when mounted, so it is limited to letters, digits, '-', '_' and '.',
// and may not be "." or start with "..".
func IsConfigMapKey(key string) []string {
	var errs []string
	if len(key) > MaxKeyLength {
		errs = append(errs, "must be no more than 253 characters")
	}
	if !configMapKeyRe.MatchString(key) {
		errs = append(errs, "must consist of letters, digits, '-', '_' or '.' (for example 'key.name', 'KEY_NAME' or 'key-name')")
	}
	switch {
	case key == ".":
		errs = append(errs, "must not be '.'")
	case key == "..":
		errs = append(errs, "must not be '..'")
	case strings.HasPrefix(key, ".."):
		errs = append(errs, "must not start with '..'")
	}
	return errs
}

// Keys checks every key of a data map, reporting at p[key].
func Keys[V any](p *field.Path, data map[string]V) field.ErrorList {
	var errs field.ErrorList
	for k := range data {
		for _, msg := range IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(p.Key(k), k, msg))
		}
	}
	return errs
}

// IsTrue reports whether an optional flag is set and true.
func IsTrue(b *bool) bool { return b != nil && *b }

// StringMapsEqual compares string maps, treating nil and empty as equal.
func StringMapsEqual(a, b map[string]string) bool { return maps.Equal(a, b) }

// BytesMapsEqual compares byte maps, treating nil and empty maps and values as equal.
func BytesMapsEqual(a, b map[string][]byte) bool { return maps.EqualFunc(a, b, bytes.Equal) }

// ImmutableFlag refuses unsetting `immutable` once an object was stored with it true.
func ImmutableFlag(p *field.Path, imm, oldImm *bool) field.ErrorList {
	if IsTrue(oldImm) && !IsTrue(imm) {
		return field.ErrorList{field.Forbidden(p, ImmutableMsg)}
	}
	return nil
}

package structural

import (
	"encoding/base64"
	"encoding/hex"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/validation"
)

// The string formats upstream's CRD validation checks, by name with '-'
// removed (so date-time and datetime are one). Any other format on a
// string is ignored when validating (upstream strips it) and reported by
// Warnings. int32, int64, float and double are known on integers and
// numbers but check nothing there either.
var stringFormats = map[string]func(string) bool{
	"bsonobjectid": isObjectID,
	"uri":          func(s string) bool { _, err := url.ParseRequestURI(s); return err == nil },
	"email":        func(s string) bool { _, err := mail.ParseAddress(s); return err == nil },
	"hostname":     func(s string) bool { return len(s) <= 255 && hostnameRE.MatchString(s) },
	"ipv4":         func(s string) bool { return net.ParseIP(s) != nil && strings.Contains(s, ".") },
	"ipv6":         func(s string) bool { return net.ParseIP(s) != nil && strings.Contains(s, ":") },
	"cidr":         func(s string) bool { _, _, err := net.ParseCIDR(s); return err == nil },
	"mac":          func(s string) bool { _, err := net.ParseMAC(s); return err == nil },
	"uuid":         uuidRE.MatchString,
	"uuid3":        uuid3RE.MatchString,
	"uuid4":        uuid4RE.MatchString,
	"uuid5":        uuid5RE.MatchString,
	"isbn":         func(s string) bool { return isISBN(s, 10) || isISBN(s, 13) },
	"isbn10":       func(s string) bool { return isISBN(s, 10) },
	"isbn13":       func(s string) bool { return isISBN(s, 13) },
	"creditcard":   isCreditCard,
	"ssn":          ssnRE.MatchString,
	"hexcolor":     hexColorRE.MatchString,
	"rgbcolor":     rgbColorRE.MatchString,
	"byte":         func(s string) bool { _, err := base64.StdEncoding.DecodeString(s); return err == nil },
	"password":     func(string) bool { return true },
	"date":         isDate,
	"duration":     isDuration,
	"datetime":     isDateTime,
	"quantity":     func(s string) bool { _, err := resource.ParseQuantity(s); return err == nil },
	"k8sshortname": func(s string) bool { return len(validation.IsDNS1123Label(s)) == 0 },
	"k8slongname":  func(s string) bool { return len(validation.IsDNS1123Subdomain(s)) == 0 },
}

// knownFormat reports whether format means something on a value of type t.
func knownFormat(t, format string) bool {
	switch t {
	case "", "string":
		_, ok := stringFormats[strings.ReplaceAll(format, "-", "")]
		return ok
	case "integer":
		return format == "int32" || format == "int64"
	case "number":
		return format == "float" || format == "double"
	}
	return false
}

// checkFormat reports whether s is valid in format; unknown formats accept
// everything.
func checkFormat(format, s string) bool {
	f, ok := stringFormats[strings.ReplaceAll(format, "-", "")]
	return !ok || f(s)
}

const rgbByte = `\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*`

var (
	hostnameRE = regexp.MustCompile(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	uuidRE     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	uuid3RE    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	uuid4RE    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	uuid5RE    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	ssnRE      = regexp.MustCompile(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	hexColorRE = regexp.MustCompile(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	rgbColorRE = regexp.MustCompile(`^rgb\(` + rgbByte + `,` + rgbByte + `,` + rgbByte + `\)$`)
	cardRE     = regexp.MustCompile(`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`)
	durationRE = regexp.MustCompile(`(\d+)\s*([A-Za-zµ]+)`)
)

func isObjectID(s string) bool {
	_, err := hex.DecodeString(s)
	return len(s) == 24 && err == nil
}

// isISBN checks an ISBN-10 or ISBN-13 (spaces and hyphens ignored) and its
// check digit.
func isISBN(s string, digits int) bool {
	s = strings.NewReplacer("-", "", " ", "").Replace(s)
	if len(s) != digits {
		return false
	}
	sum := 0
	for i, c := range s {
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c == 'X' && digits == 10 && i == 9:
			d = 10
		default:
			return false
		}
		if digits == 10 {
			sum += (10 - i) * d
		} else if i%2 == 0 {
			sum += d
		} else {
			sum += 3 * d
		}
	}
	if digits == 10 {
		return sum%11 == 0
	}
	return sum%10 == 0
}

// isCreditCard checks the digits of s (other characters ignored) against
// the issuers' number shapes and the Luhn checksum.
func isCreditCard(s string) bool {
	var b strings.Builder
	for _, c := range s {
		if c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	digits := b.String()
	if !cardRE.MatchString(digits) {
		return false
	}
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// isDateTime accepts an RFC 3339 date-time with a zone, in either case,
// as upstream's format checker does: the text before the first 't' is a
// date; the text up to the next 't' (if any) is hh:mm:ss, an optional
// separator and fraction digits, and 'z' or a ±hh:mm offset.
func isDateTime(s string) bool {
	sep := strings.IndexAny(s, "tT")
	if len(s) < 4 || sep < 0 || !isDate(s[:sep]) {
		return false
	}
	clock := s[sep+1:]
	if end := strings.IndexAny(clock, "tT"); end >= 0 {
		clock = clock[:end]
	}
	return isClock(clock)
}

// isClock matches hh:mm:ss(.d+)?(z|[+-]hh:mm) with hh <= 23, mm and
// ss <= 59; the fraction's separator may be any character.
func isClock(c string) bool {
	if len(c) < 9 || !twoDigits(c[0:2]) || c[2] != ':' || !twoDigits(c[3:5]) || c[5] != ':' || !twoDigits(c[6:8]) {
		return false
	}
	if c[0:2] > "23" || c[3:5] > "59" || c[6:8] > "59" {
		return false
	}
	zone := c[8:]
	if !isZone(zone) && len(zone) > 1 {
		j := 1
		for j < len(zone) && zone[j] >= '0' && zone[j] <= '9' {
			j++
		}
		if j == 1 || !isZone(zone[j:]) {
			return false
		}
		zone = zone[j:]
	}
	return isZone(zone)
}

func isZone(z string) bool {
	if z == "z" || z == "Z" {
		return true
	}
	return len(z) == 6 && (z[0] == '+' || z[0] == '-') && twoDigits(z[1:3]) && z[3] == ':' && twoDigits(z[4:6])
}

func twoDigits(d string) bool {
	return len(d) == 2 && d[0] >= '0' && d[0] <= '9' && d[1] >= '0' && d[1] <= '9'
}

// durationUnits are the unit spellings a duration may use beside Go's:
// the first of each row, or any word starting with the last.
var durationUnits = [][]string{
	{"ns", "nano"}, {"us", "µs", "micro"}, {"ms", "milli"}, {"s", "sec"},
	{"m", "min"}, {"h", "hr", "hour"}, {"d", "day"}, {"w", "wk", "week"},
}

// isDuration accepts Go durations ("1h30m") and counted units ("3 days").
func isDuration(s string) bool {
	if _, err := time.ParseDuration(s); err == nil {
		return true
	}
	ok := false
	for _, m := range durationRE.FindAllStringSubmatch(s, -1) {
		if _, err := strconv.Atoi(m[1]); err != nil {
			return false
		}
		unit := strings.ToLower(m[2])
		for _, variants := range durationUnits {
			last := len(variants) - 1
			for i, v := range variants {
				if unit == v || (i == last && strings.HasPrefix(unit, v)) {
					ok = true
				}
			}
		}
	}
	return ok
}

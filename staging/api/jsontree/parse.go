package jsontree

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// parser reads JSON documents into trees, checking them as it goes: it
// accepts exactly what json.Valid accepts (nesting included), so a
// document is read in one pass rather than checked by encoding/json's
// scanner first. It reads values as encoding/json does (the last of
// duplicate keys wins, invalid UTF-8 and lone surrogates become U+FFFD)
// and numbers as Numbers does, several times faster than encoding/json's
// decoding into interfaces. On a document it refuses, bad is set and
// the caller asks encoding/json, for its error.
type parser struct {
	data  []byte
	i     int
	depth int
	bad   bool
	// limit, when not 0, is a nesting limit below maxDepth; compact
	// refuses white space between tokens (IsCompact).
	limit   int
	compact bool
}

// maxDepth is encoding/json's limit on nesting: deeper documents are
// invalid.
const maxDepth = 10000

// fail marks the document refused and moves to its end, where peek
// returns 0, which no rule accepts, so every caller stops.
func (p *parser) fail() {
	p.bad = true
	p.i = len(p.data)
}

// peek returns the byte at p.i, 0 at the end.
func (p *parser) peek() byte {
	if p.i < len(p.data) {
		return p.data[p.i]
	}
	return 0
}

func (p *parser) space() {
	if p.i < len(p.data) && p.data[p.i] > ' ' {
		// No white space here, as in most of a compact document.
		return
	}
	if p.compact {
		switch p.peek() {
		case ' ', '\t', '\n', '\r':
			p.fail()
		}
		return
	}
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// IsCompact reports whether b is one well-formed JSON value, as json.Valid
// accepts it, with no white space between its tokens (json.Compact would
// copy it as it is) and nested at most limit deep (0 for encoding/json's
// own limit); it says no to anything else.
func IsCompact(b []byte, limit int) bool {
	p := parser{data: b, limit: limit, compact: true}
	p.value(false)
	return p.end()
}

// value reads the value at p.i (after white space), as a tree when build
// is set, and only checks and skips it otherwise.
func (p *parser) value(build bool) any {
	p.space()
	switch p.peek() {
	case '{':
		return p.object(build)
	case '[':
		return p.array(build)
	case '"':
		if build {
			return p.string()
		}
		p.skipString()
		return nil
	case 't':
		p.literal("true")
		return true
	case 'f':
		p.literal("false")
		return false
	case 'n':
		p.literal("null")
		return nil
	default:
		return p.number(build)
	}
}

func (p *parser) object(build bool) any {
	p.i++ // '{'
	if p.depth++; p.depth > maxDepth || p.limit > 0 && p.depth > p.limit {
		p.fail()
		return nil
	}
	var m map[string]any
	if build {
		m = map[string]any{}
	}
	p.space()
	if p.peek() == '}' {
		p.i++
		p.depth--
		return m
	}
	for {
		p.space()
		if p.peek() != '"' {
			p.fail()
			return nil
		}
		var k string
		if build {
			k = p.string()
		} else {
			p.skipString()
		}
		p.space()
		if p.peek() != ':' {
			p.fail()
			return nil
		}
		p.i++
		v := p.value(build)
		if p.bad {
			return nil
		}
		if build {
			m[k] = v
		}
		p.space()
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			p.depth--
			return m
		default:
			p.fail()
			return nil
		}
	}
}

func (p *parser) array(build bool) any {
	p.i++ // '['
	if p.depth++; p.depth > maxDepth || p.limit > 0 && p.depth > p.limit {
		p.fail()
		return nil
	}
	var l []any
	if build {
		l = []any{}
	}
	p.space()
	if p.peek() == ']' {
		p.i++
		p.depth--
		return l
	}
	for {
		v := p.value(build)
		if p.bad {
			return nil
		}
		if build {
			l = append(l, v)
		}
		p.space()
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			p.depth--
			return l
		default:
			p.fail()
			return nil
		}
	}
}

func (p *parser) literal(s string) {
	if !bytes.HasPrefix(p.data[p.i:], []byte(s)) {
		p.fail()
		return
	}
	p.i += len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number reads a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number(build bool) any {
	start := p.i
	if p.peek() == '-' {
		p.i++
	}
	switch c := p.peek(); {
	case c == '0':
		p.i++
	case '1' <= c && c <= '9':
		for p.i++; isDigit(p.peek()); p.i++ {
		}
	default:
		p.fail()
		return nil
	}
	integer := true
	if p.peek() == '.' {
		integer = false
		p.i++
		if !isDigit(p.peek()) {
			p.fail()
			return nil
		}
		for p.i++; isDigit(p.peek()); p.i++ {
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		integer = false
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if !isDigit(p.peek()) {
			p.fail()
			return nil
		}
		for p.i++; isDigit(p.peek()); p.i++ {
		}
	}
	if !build {
		return nil
	}
	s := p.data[start:p.i]
	if integer && len(s) <= 18 { // at most 18 digits: fits an int64
		neg := s[0] == '-'
		if neg {
			s = s[1:]
		}
		var n int64
		for _, c := range s {
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return n
	}
	return Numbers(json.Number(s))
}

// string reads a string at p.i, its opening quote included.
func (p *parser) string() string {
	p.i++
	start := p.i
	for p.i < len(p.data) {
		c := p.data[p.i]
		if c == '"' {
			s := string(p.data[start:p.i])
			p.i++
			return s
		}
		if c < 0x20 {
			p.fail()
			return ""
		}
		if c == '\\' || c >= utf8.RuneSelf {
			break
		}
		p.i++
	}
	// Escapes or non-ASCII bytes: decode rune by rune.
	buf := make([]byte, 0, p.i-start+16)
	buf = append(buf, p.data[start:p.i]...)
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf)
		case c == '\\':
			p.i++
			e := p.peek()
			p.i++
			switch e {
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'u':
				r, ok := p.hex4(p.i)
				if !ok {
					p.fail()
					return ""
				}
				p.i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if p.i+6 <= len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
						if x, ok := p.hex4(p.i + 2); ok {
							r2 = x
						}
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						p.i += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				p.fail()
				return ""
			}
		case c < 0x20:
			p.fail()
			return ""
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.i++
		default:
			r, size := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, p.data[p.i:p.i+size]...)
			}
			p.i += size
		}
	}
	p.fail() // no closing quote
	return ""
}

// skipString checks and moves past the string at p.i. It keeps its place
// in a local, not in p, for its loop over the bytes.
func (p *parser) skipString() {
	data := p.data
	for i := p.i + 1; i < len(data); {
		switch c := data[i]; {
		case c == '"':
			p.i = i + 1
			return
		case c < 0x20:
			p.fail()
			return
		case c == '\\':
			i++
			if i >= len(data) {
				p.fail()
				return
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if _, ok := p.hex4(i + 1); !ok {
					p.fail()
					return
				}
				i += 5
			default:
				p.fail()
				return
			}
		default:
			i++
		}
	}
	p.fail() // no closing quote
}

// hex4 reads the four hex digits at i.
func (p *parser) hex4(i int) (rune, bool) {
	if i+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// end tells whether the document was read whole: accepted, with only
// white space after its value.
func (p *parser) end() bool {
	p.space()
	return !p.bad && p.i == len(p.data)
}

// DecodeObject decodes a JSON object into a tree of its members, except
// the members named in raw, which it returns as their JSON text (a slice
// of data). Of duplicate members the last counts, as with the others. A
// null gives nil maps, as encoding/json decodes null into a map; any
// other document that is not an object gives encoding/json's error.
func DecodeObject(data []byte, raw ...string) (map[string]any, map[string][]byte, error) {
	return object(data, raw, true)
}

// RawMembers returns the JSON text (slices of data) of the members of the
// JSON object data named in names, checking and skipping over the others
// without decoding them; of duplicate members the last counts. It reads
// documents as DecodeObject does: a null gives a nil map, any other
// document that is not an object encoding/json's error. It is for reading
// a few members (an object's metadata) of a large document.
func RawMembers(data []byte, names ...string) (map[string][]byte, error) {
	_, kept, err := object(data, names, false)
	return kept, err
}

// object reads the JSON object data: the members named in raw as their
// text, the others as trees when build is set and skipped otherwise.
func object(data []byte, raw []string, build bool) (map[string]any, map[string][]byte, error) {
	p := parser{data: data}
	p.space()
	if p.peek() == '{' {
		tree, kept := p.members(raw, build)
		if p.end() {
			return tree, kept, nil
		}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, nil, err
	}
	if top == nil {
		return nil, nil, nil // null
	}
	// A document the parser refused and encoding/json accepts: none is
	// known (the fuzz targets look for one); read it member by member.
	var tree map[string]any
	if build {
		tree = map[string]any{}
	}
	kept := map[string][]byte{}
	for k, v := range top {
		if slices.Contains(raw, k) {
			kept[k] = v
			continue
		}
		if build {
			var err error
			if tree[k], err = Decode(v); err != nil {
				return nil, nil, err
			}
		}
	}
	return tree, kept, nil
}

// members reads the object at p.i for object.
func (p *parser) members(raw []string, build bool) (map[string]any, map[string][]byte) {
	p.i++ // '{'
	p.depth++
	var tree map[string]any
	if build {
		tree = map[string]any{}
	}
	kept := map[string][]byte{}
	p.space()
	if p.peek() == '}' {
		p.i++
		return tree, kept
	}
	for {
		p.space()
		if p.peek() != '"' {
			p.fail()
			return nil, nil
		}
		k := p.string()
		p.space()
		if p.peek() != ':' {
			p.fail()
			return nil, nil
		}
		p.i++
		switch {
		case slices.Contains(raw, k):
			p.space()
			start := p.i
			p.value(false)
			kept[k] = p.data[start:p.i]
		case build:
			tree[k] = p.value(true)
		default:
			p.value(false)
		}
		if p.bad {
			return nil, nil
		}
		p.space()
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return tree, kept
		default:
			p.fail()
			return nil, nil
		}
	}
}

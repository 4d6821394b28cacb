package jsontree

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parser builds the tree of a document json.Valid accepted, so it needs
// no error paths: it reads values as encoding/json does (the last of
// duplicate keys wins, invalid UTF-8 and lone surrogates become U+FFFD)
// and numbers as Numbers does, several times faster than encoding/json's
// decoding into interfaces.
type parser struct {
	data []byte
	i    int
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() any {
	p.space()
	switch c := p.data[p.i]; c {
	case '{':
		p.i++
		m := map[string]any{}
		p.space()
		if p.data[p.i] == '}' {
			p.i++
			return m
		}
		for {
			p.space()
			k := p.string()
			p.space()
			p.i++ // ':'
			m[k] = p.value()
			p.space()
			c := p.data[p.i]
			p.i++
			if c == '}' {
				return m
			}
		}
	case '[':
		p.i++
		l := []any{}
		p.space()
		if p.data[p.i] == ']' {
			p.i++
			return l
		}
		for {
			l = append(l, p.value())
			p.space()
			c := p.data[p.i]
			p.i++
			if c == ']' {
				return l
			}
		}
	case '"':
		return p.string()
	case 't':
		p.i += 4
		return true
	case 'f':
		p.i += 5
		return false
	case 'n':
		p.i += 4
		return nil
	default:
		start := p.i
		for p.i < len(p.data) {
			switch p.data[p.i] {
			case '-', '+', '.', 'e', 'E', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				p.i++
				continue
			}
			break
		}
		return Numbers(json.Number(p.data[start:p.i]))
	}
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
		if c == '\\' || c >= utf8.RuneSelf {
			break
		}
		p.i++
	}
	// Escapes or non-ASCII bytes: decode rune by rune.
	buf := make([]byte, 0, p.i-start+16)
	buf = append(buf, p.data[start:p.i]...)
	for {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf)
		case c == '\\':
			p.i++
			e := p.data[p.i]
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
			case 'u':
				r := p.hex4(p.i)
				p.i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if p.i+6 <= len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
						r2 = p.hex4(p.i + 2)
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						p.i += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default: // '"', '\\', '/'
				buf = append(buf, e)
			}
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
}

// hex4 reads the four hex digits at i.
func (p *parser) hex4(i int) rune {
	n, _ := strconv.ParseUint(string(p.data[i:i+4]), 16, 32)
	return rune(n)
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
// JSON object data named in names, skipping over the others without
// decoding them; of duplicate members the last counts. It reads documents
// as DecodeObject does: a null gives a nil map, any other document that
// is not an object encoding/json's error. It is for reading a few members
// (an object's metadata) of a large document.
func RawMembers(data []byte, names ...string) (map[string][]byte, error) {
	_, kept, err := object(data, names, false)
	return kept, err
}

// object reads the JSON object data: the members named in raw as their
// text, the others as trees when build is set and skipped otherwise.
func object(data []byte, raw []string, build bool) (map[string]any, map[string][]byte, error) {
	p := parser{data: data}
	valid := json.Valid(data)
	if valid {
		p.space()
	}
	if !valid || p.data[p.i] != '{' {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, nil, err
		}
		return nil, nil, nil // null
	}
	p.i++
	var tree map[string]any
	if build {
		tree = map[string]any{}
	}
	kept := map[string][]byte{}
	p.space()
	if p.data[p.i] == '}' {
		return tree, kept, nil
	}
	for {
		p.space()
		k := p.string()
		p.space()
		p.i++ // ':'
		switch {
		case slices.Contains(raw, k):
			p.space()
			start := p.i
			p.skip()
			kept[k] = data[start:p.i]
		case build:
			tree[k] = p.value()
		default:
			p.space()
			p.skip()
		}
		p.space()
		c := p.data[p.i]
		p.i++
		if c == '}' {
			return tree, kept, nil
		}
	}
}

// skip moves past the value at p.i.
func (p *parser) skip() {
	depth := 0
	for {
		switch p.data[p.i] {
		case '"':
			p.i++
			for p.data[p.i] != '"' {
				if p.data[p.i] == '\\' {
					p.i++
				}
				p.i++
			}
			p.i++
		case '{', '[':
			depth++
			p.i++
		case '}', ']':
			depth--
			p.i++
		default:
			for p.i < len(p.data) && !endsScalar(p.data[p.i]) {
				p.i++
			}
		}
		if depth == 0 {
			return
		}
		p.space()
		if p.data[p.i] == ',' || p.data[p.i] == ':' {
			p.i++
			p.space()
		}
	}
}

// endsScalar tells whether c ends a number, true, false or null.
func endsScalar(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

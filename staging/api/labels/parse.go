package labels

import (
	"fmt"
	"strings"
)

// Parse reads a selector in the query syntax of the labelSelector parameter:
// comma-separated requirements, all of which must hold.
//
//	selector    := "" | requirement { "," requirement }
//	requirement := "!" KEY | KEY [ setOp valueSet | exactOp VALUE ]
//	setOp       := "in" | "notin"
//	valueSet    := "(" [ VALUE { "," VALUE } ] ")"
//	exactOp     := "=" | "==" | "!=" | ">" | "<"
//
// Whitespace between tokens is ignored. An empty string (or only
// whitespace) selects everything. Values may be empty ("k=", "k in (a,)");
// ">" and "<" compare integers. Keys and values are validated.
func Parse(s string) (Selector, error) {
	p := parser{toks: lex(s)}
	reqs, err := p.parse()
	if err != nil {
		return nil, fmt.Errorf("unable to parse requirement: %w", err)
	}
	return NewSelector(reqs...), nil
}

// MustParse is Parse for selectors known to be valid; it panics on error.
func MustParse(s string) Selector {
	sel, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return sel
}

type tokenKind int

const (
	tokEnd tokenKind = iota
	tokIdent
	tokIn
	tokNotIn
	tokOpenPar
	tokClosePar
	tokComma
	tokBang
	tokEquals
	tokDoubleEquals
	tokNotEquals
	tokGreater
	tokLess
)

type token struct {
	kind tokenKind
	lit  string
	pos  int
}

// describe names the token for error messages.
func (t token) describe() string {
	if t.kind == tokEnd {
		return "end of string"
	}
	return fmt.Sprintf("%q at offset %d", t.lit, t.pos)
}

var symbolTokens = map[string]tokenKind{
	"(": tokOpenPar, ")": tokClosePar, ",": tokComma, "!": tokBang,
	"=": tokEquals, "==": tokDoubleEquals, "!=": tokNotEquals,
	">": tokGreater, "<": tokLess,
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

func isSymbol(c byte) bool {
	return strings.IndexByte("=!(),><", c) >= 0
}

// lex splits s into tokens. Symbols are taken longest first ("!=", "=="),
// every other run of characters up to a space or symbol is an identifier or
// one of the keywords "in" and "notin". The last token is always tokEnd.
func lex(s string) []token {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isSpace(c):
			i++
		case isSymbol(c):
			n := 1
			if i+1 < len(s) && (s[i:i+2] == "!=" || s[i:i+2] == "==") {
				n = 2
			}
			toks = append(toks, token{kind: symbolTokens[s[i:i+n]], lit: s[i : i+n], pos: i})
			i += n
		default:
			start := i
			for i < len(s) && !isSpace(s[i]) && !isSymbol(s[i]) {
				i++
			}
			t := token{kind: tokIdent, lit: s[start:i], pos: start}
			switch t.lit {
			case "in":
				t.kind = tokIn
			case "notin":
				t.kind = tokNotIn
			}
			toks = append(toks, t)
		}
	}
	return append(toks, token{kind: tokEnd, pos: len(s)})
}

type parser struct {
	toks []token
	pos  int
}

// peek returns the next token without consuming it.
func (p *parser) peek() token { return p.toks[p.pos] }

// next consumes and returns the next token; tokEnd is never consumed.
func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEnd {
		p.pos++
	}
	return t
}

// nextValue is next where a value is expected: there the keywords are
// plain identifiers.
func (p *parser) nextValue() token {
	t := p.next()
	if t.kind == tokIn || t.kind == tokNotIn {
		t.kind = tokIdent
	}
	return t
}

func unexpected(t token, want string) error {
	return fmt.Errorf("found %s, expected %s", t.describe(), want)
}

func (p *parser) parse() ([]Requirement, error) {
	if p.peek().kind == tokEnd {
		return nil, nil
	}
	var reqs []Requirement
	for {
		r, err := p.parseRequirement()
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, r)
		switch t := p.next(); t.kind {
		case tokEnd:
			return reqs, nil
		case tokComma:
		default:
			return nil, unexpected(t, "',' or end of string")
		}
	}
}

var operatorTokens = map[tokenKind]Operator{
	tokIn: In, tokNotIn: NotIn, tokEquals: Equals, tokDoubleEquals: DoubleEquals,
	tokNotEquals: NotEquals, tokGreater: GreaterThan, tokLess: LessThan,
}

func (p *parser) parseRequirement() (Requirement, error) {
	t := p.next()
	negated := t.kind == tokBang
	if negated {
		t = p.next()
	}
	if t.kind != tokIdent {
		if negated {
			return Requirement{}, unexpected(t, "a label key after '!'")
		}
		return Requirement{}, unexpected(t, "a label key or '!'")
	}
	key := t.lit
	if negated {
		return NewRequirement(key, DoesNotExist, nil)
	}
	if k := p.peek().kind; k == tokEnd || k == tokComma {
		return NewRequirement(key, Exists, nil)
	}
	opTok := p.next()
	op, ok := operatorTokens[opTok.kind]
	if !ok {
		return Requirement{}, unexpected(opTok, "one of '=', '==', '!=', '>', '<', 'in', 'notin', ',' or end of string")
	}
	var values []string
	var err error
	if op == In || op == NotIn {
		values, err = p.parseValueSet()
	} else {
		values, err = p.parseExactValue()
	}
	if err != nil {
		return Requirement{}, err
	}
	return NewRequirement(key, op, values)
}

// parseValueSet reads "(v1,v2,...)". A missing value next to a comma or
// parenthesis stands for the empty value, so "()" is the set {""}.
func (p *parser) parseValueSet() ([]string, error) {
	if t := p.next(); t.kind != tokOpenPar {
		return nil, unexpected(t, "'('")
	}
	var values []string
	wantValue := true
	for {
		t := p.nextValue()
		switch {
		case t.kind == tokIdent && wantValue:
			values = append(values, t.lit)
			wantValue = false
		case t.kind == tokComma:
			if wantValue {
				values = append(values, "")
			}
			wantValue = true
		case t.kind == tokClosePar:
			if wantValue {
				values = append(values, "")
			}
			return values, nil
		case wantValue:
			return nil, unexpected(t, "a value, ',' or ')'")
		default:
			return nil, unexpected(t, "',' or ')'")
		}
	}
}

// parseExactValue reads the single value after '=', '==', '!=', '>' or '<';
// it is empty when the requirement ends right after the operator.
func (p *parser) parseExactValue() ([]string, error) {
	if k := p.peek().kind; k == tokEnd || k == tokComma {
		return []string{""}, nil
	}
	t := p.nextValue()
	if t.kind != tokIdent {
		return nil, unexpected(t, "a value")
	}
	return []string{t.lit}, nil
}

package fields

import "fmt"

// InvalidEscapeSequenceError reports a backslash in a value that is not
// followed by '\', ',' or '='.
type InvalidEscapeSequenceError struct {
	Sequence string
	Offset   int
}

func (e InvalidEscapeSequenceError) Error() string {
	return fmt.Sprintf("invalid escape sequence %q at offset %d: only \\\\, \\, and \\= are allowed", e.Sequence, e.Offset)
}

// UnescapedRuneError reports a ',' or '=' in a value that lacks its
// escaping backslash.
type UnescapedRuneError struct {
	Rune   rune
	Offset int
}

func (e UnescapedRuneError) Error() string {
	return fmt.Sprintf("%q at offset %d must be escaped with a backslash", e.Rune, e.Offset)
}

package framework

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// errTrailingData is wrapped by DecodeArgs when something follows the
// arguments' JSON value.
var errTrailingData = errors.New("trailing data after the object")

// DecodeArgs decodes a plugin's JSON arguments into into, strictly: an
// unknown field, a malformed value or data after the value fail, with an
// error that names the plugin and wraps the decoder's. Empty (all white
// space) or null raw leaves into as it is, so callers set the defaults in
// into first. DecodeArgs does not validate the values.
func DecodeArgs(plugin string, raw json.RawMessage, into any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("%s: decoding args: %w", plugin, err)
	}
	// More alone would miss a stray '}' or ']'; a second token must be EOF.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: decoding args: %w", plugin, errTrailingData)
	}
	return nil
}

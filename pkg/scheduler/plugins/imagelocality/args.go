package imagelocality

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// decodeArgs decodes raw into into strictly (unknown fields and trailing
// data fail); empty or null raw leaves into as it is (the defaults).
func decodeArgs(raw json.RawMessage, into any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("%s: decoding args: %w", Name, err)
	}
	if dec.More() {
		return fmt.Errorf("%s: decoding args: trailing data after the object", Name)
	}
	return nil
}

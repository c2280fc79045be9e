package report

import (
	"bytes"
	"encoding/json"
	"os"
)

// WriteJSON writes v to path as JSON indented by two spaces, with a trailing
// newline. Keys are stable across runs: struct fields keep their declaration
// order and map keys are sorted (encoding/json). HTML characters are not
// escaped, so "<", ">" and "&" stay readable.
func WriteJSON(path string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

package report

import (
	"bytes"
	"os"

	"github.com/linemem/linemem/lib/jsonl"
)

// WriteJSON writes v to path as JSON indented by two spaces, with a trailing
// newline. Keys are stable across runs: struct fields keep their declaration
// order and map keys are sorted (encoding/json). HTML characters are not
// escaped, so "<", ">" and "&" stay readable.
func WriteJSON(path string, v any) error {
	data, err := JSON(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// JSON is what WriteJSON writes for v.
func JSON(v any) ([]byte, error) {
	var b bytes.Buffer
	err := jsonl.WriteIndented(&b, v)
	return b.Bytes(), err
}

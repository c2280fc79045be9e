// Package questions reads evaluation question sets (spec §11): JSON lines
// `{"qid": str, "question": str, "type": str}` with an optional
// `"answer": str`, a short reference answer (spec §13); other fields are
// ignored. A missing or null answer leaves Answer empty.
package questions

import (
	"encoding/json"
	"io"

	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/regularfile"

	"github.com/linemem/linemem/lib/inputerr"
)

// The paper's question types (spec §10).
const (
	NamedEntity = "named_entity"
	Contextual  = "contextual"
	Aggregate   = "aggregate"
)

// Types lists the paper's question types in reporting order.
var Types = []string{NamedEntity, Contextual, Aggregate}

// Question is one evaluation question.
type Question struct {
	QID      string `json:"qid"`
	Question string `json:"question"`
	Type     string `json:"type"`
	Answer   string `json:"answer,omitempty"` // reference answer; "" when the file gives none
}

// InputError names the file and line of a malformed question and what was expected.
type InputError = inputerr.Error

// ReadFile reads a questions file; see Read.
func ReadFile(path string) ([]Question, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(path, f)
}

// Read parses one JSON object per line, in file order. Blank lines are
// skipped. qid and question must be non-empty strings, qids unique; type must
// be a string (it may be outside Types). name is used in errors.
func Read(name string, r io.Reader) ([]Question, error) {
	var out []Question
	seen := map[string]int{}
	err := jsonl.Lines(name, r, func(line int, b []byte) error {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			return inputerr.At(name, line, "a JSON object {\"qid\", \"question\", \"type\"}: "+err.Error())
		}
		var q Question
		for _, f := range []struct {
			key string
			dst *string
		}{{"qid", &q.QID}, {"question", &q.Question}, {"type", &q.Type}} {
			v, ok := raw[f.key]
			if !ok {
				return inputerr.Atf(name, line, "field %q", f.key)
			}
			if err := json.Unmarshal(v, f.dst); err != nil {
				return inputerr.Atf(name, line, "field %q to be a string", f.key)
			}
		}
		if v, ok := raw["answer"]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, &q.Answer); err != nil {
				return inputerr.At(name, line, `field "answer" to be a string`)
			}
		}
		if q.QID == "" || q.Question == "" {
			return inputerr.At(name, line, "non-empty qid and question")
		}
		if prev, dup := seen[q.QID]; dup {
			return inputerr.Atf(name, line, "a unique qid; %q already on line %d", q.QID, prev)
		}
		seen[q.QID] = line
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Package questions reads evaluation question sets (spec §11): JSON lines
// `{"qid": str, "question": str, "type": str}`, other fields ignored.
package questions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
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
}

// InputError names the file and line of a malformed question and what was expected.
type InputError struct {
	File     string
	Line     int
	Expected string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s:%d: expected %s", e.File, e.Line, e.Expected)
}

// ReadFile reads a questions file; see Read.
func ReadFile(path string) ([]Question, error) {
	f, err := os.Open(path)
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
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if len(b) == 0 {
			continue
		}
		if !utf8.Valid(b) {
			return nil, &InputError{name, line, "valid UTF-8"}
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			return nil, &InputError{name, line, "a JSON object {\"qid\", \"question\", \"type\"}: " + err.Error()}
		}
		var q Question
		for _, f := range []struct {
			key string
			dst *string
		}{{"qid", &q.QID}, {"question", &q.Question}, {"type", &q.Type}} {
			v, ok := raw[f.key]
			if !ok {
				return nil, &InputError{name, line, fmt.Sprintf("field %q", f.key)}
			}
			if err := json.Unmarshal(v, f.dst); err != nil {
				return nil, &InputError{name, line, fmt.Sprintf("field %q to be a string", f.key)}
			}
		}
		if q.QID == "" || q.Question == "" {
			return nil, &InputError{name, line, "non-empty qid and question"}
		}
		if prev, dup := seen[q.QID]; dup {
			return nil, &InputError{name, line, fmt.Sprintf("a unique qid; %q already on line %d", q.QID, prev)}
		}
		seen[q.QID] = line
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

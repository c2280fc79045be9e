// Package gold builds graded relevance judgments (TREC qrels) from evidence
// files, the way the paper built its gold (paper §4.2–4.3, spec §11): each
// evidence item names one message by source, date, time, sender and a text
// prefix; the item is matched to a stored message, the message is mapped to
// every chunk that contains it, and chunks holding an answer message get
// relevance 2 while chunks holding only supporting messages get relevance 1.
// Groups then joins the relevance-2 chunks that hold the same answer message
// into evidence groups, the one definition the gold workbench and the
// evidence-group analysis both use.
package gold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/regularfile"

	"github.com/linemem/linemem/lib/inputerr"
)

// Evidence roles (spec §11). An item without a role is an answer.
const (
	RoleAnswer  = "answer"
	RoleSupport = "support"
)

// Evidence is one line of an evidence file: a question and the messages that
// answer or support it.
type Evidence struct {
	QID      string `json:"qid"`
	Question string `json:"question"`
	Type     string `json:"type"`
	Answer   string `json:"answer,omitempty"` // optional reference answer (spec §13), carried through
	Items    []Item `json:"evidence"`
}

// Item names one evidence message as a person (or a question-writing tool)
// would quote it: where and when it was said, by whom, and how it begins.
type Item struct {
	Source     string `json:"source"`
	Date       string `json:"date"`        // YYYY-MM-DD
	Time       string `json:"time"`        // H:MM, HH:MM or HH:MM:SS; empty when unknown
	Sender     string `json:"sender"`      // as exported; SYSTEM for system events
	TextPrefix string `json:"text_prefix"` // the start of the message text, or an excerpt of it
	Role       string `json:"role"`        // RoleAnswer or RoleSupport; empty means RoleAnswer
}

// IsAnswer reports whether the item is answer evidence (the default role).
func (it Item) IsAnswer() bool { return it.Role == "" || it.Role == RoleAnswer }

// InputError names the file and line of a malformed evidence line and what
// was expected.
type InputError = inputerr.Error

// ReadEvidenceFile reads an evidence file; see ReadEvidence.
func ReadEvidenceFile(path string) ([]Evidence, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadEvidence(path, f)
}

// ReadEvidence parses one JSON object per line in file order (spec §11).
// Blank lines are skipped and one leading byte-order mark is allowed. qid must
// be a non-empty string, unique in the file; every item needs source, date
// and text_prefix, and a role that is empty, "answer" or "support". file is
// used in errors.
func ReadEvidence(file string, r io.Reader) ([]Evidence, error) {
	var out []Evidence
	seen := map[string]int{}
	err := jsonl.Lines(file, r, func(line int, b []byte) error {
		var ev Evidence
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&ev); err != nil {
			return inputerr.At(file, line, `a JSON object {"qid", "question", "type", "evidence": [...]}: `+err.Error())
		}
		if ev.QID == "" {
			return inputerr.At(file, line, `a non-empty "qid"`)
		}
		if prev, dup := seen[ev.QID]; dup {
			return inputerr.At(file, line, fmt.Sprintf("a unique qid; %q already on line %d", ev.QID, prev))
		}
		seen[ev.QID] = line
		for i, it := range ev.Items {
			if it.Source == "" || it.Date == "" || it.TextPrefix == "" {
				return inputerr.At(file, line, fmt.Sprintf(`"source", "date" and "text_prefix" in evidence item %d`, i))
			}
			if it.Role != "" && it.Role != RoleAnswer && it.Role != RoleSupport {
				return inputerr.At(file, line, fmt.Sprintf(`role "answer" or "support" in evidence item %d, got %q`, i, it.Role))
			}
		}
		out = append(out, ev)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WriteEvidence writes one JSON line per question in the given order, with
// non-ASCII text unescaped.
func WriteEvidence(w io.Writer, evidence []Evidence) error {
	jw := jsonl.NewWriter(w)
	for _, ev := range evidence {
		if ev.Items == nil {
			ev.Items = []Item{}
		}
		if err := jw.Write(ev); err != nil {
			return err
		}
	}
	return jw.Flush()
}

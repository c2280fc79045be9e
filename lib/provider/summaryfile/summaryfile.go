// Package summaryfile is an offline provider.Summarizer that takes summaries
// from a JSON-lines file of {"chunk_id": str, "summary": str} (spec §11), such
// as the synthetic corpus's summaries.jsonl. It sends nothing anywhere, so
// `linemem summarize --provider file` works with no network and goes through
// the same cache, provenance and report as a remote provider.
//
// Within the file the last line for a chunk ID wins (spec §9). A chunk the
// file does not cover fails permanently with a message naming the file.
package summaryfile

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/regularfile"

	"github.com/linemem/linemem/lib/provider"
)

// Name is the provider name in the registry.
const Name = "file"

// Summarizer answers from a loaded file.
type Summarizer struct {
	file      string
	sha       string
	summaries map[string]string
}

func init() {
	provider.RegisterSummarizer(Name, func(o provider.Options) (provider.Summarizer, error) {
		if o.SummariesFile == "" {
			return nil, fmt.Errorf("provider %s needs a summaries file (--summaries FILE)", Name)
		}
		return Load(o.SummariesFile)
	})
}

// Load reads path.
func Load(path string) (*Summarizer, error) {
	b, err := regularfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, bytes.NewReader(b))
}

// Parse reads summaries from r; name is used in errors and the model name.
// Each non-blank line must be a JSON object with string fields chunk_id
// (non-empty) and summary, in valid UTF-8; other fields are ignored.
func Parse(name string, r io.Reader) (*Summarizer, error) {
	h := sha256.New()
	br := bufio.NewReader(io.TeeReader(r, h))
	s := &Summarizer{file: name, summaries: map[string]string{}}
	err := jsonl.Lines(name, br, func(line int, data []byte) error {
		var row struct {
			ChunkID *string `json:"chunk_id"`
			Summary *string `json:"summary"`
		}
		if jerr := json.Unmarshal(data, &row); jerr != nil || row.ChunkID == nil || *row.ChunkID == "" || row.Summary == nil {
			return inputerr.At(name, line, `{"chunk_id": non-empty string, "summary": string}`)
		}
		s.summaries[*row.ChunkID] = *row.Summary
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.sha = hex.EncodeToString(h.Sum(nil))
	return s, nil
}

func (s *Summarizer) Name() string { return Name }

// Model is "file:" plus the file's base name.
func (s *Summarizer) Model() string { return "file:" + filepath.Base(s.file) }

// Params holds the file's sha256, so an edited file yields new cache keys.
func (s *Summarizer) Params() string { return "sha256=" + s.sha }
func (s *Summarizer) Remote() bool   { return false }

// IDBound marks the answer as depending on the chunk ID (provider.IDBound).
func (s *Summarizer) IDBound() {}

// Len is the number of chunk IDs the file covers.
func (s *Summarizer) Len() int { return len(s.summaries) }

// Summarize returns the file's summary of req.ID; req.Input is ignored.
func (s *Summarizer) Summarize(ctx context.Context, req provider.SummaryRequest) (provider.SummaryResult, error) {
	if err := ctx.Err(); err != nil {
		return provider.SummaryResult{}, err
	}
	text, ok := s.summaries[req.ID]
	if !ok {
		return provider.SummaryResult{}, &provider.CallError{Attempts: 1, Permanent: true,
			Err: fmt.Errorf("%s has no summary for chunk %s", filepath.Base(s.file), req.ID)}
	}
	return provider.SummaryResult{Text: text, Call: provider.Call{RequestedModel: s.Model(), ReturnedModel: s.Model(), Attempts: 1}}, nil
}

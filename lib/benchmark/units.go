package benchmark

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/trec"
)

// RunsDir is the folder, inside a benchmark's work folder, where WriteRuns
// puts the unit runs.
const RunsDir = "units-runs"

// HasNative reports whether a converted folder holds native questions
// (datasets.NativeFile), the input of the units study.
func HasNative(dataDir string) bool {
	_, err := os.Stat(filepath.Join(dataDir, datasets.NativeFile))
	return err == nil
}

// RunUnits runs the units study: each user folder of dirs is prepared
// again under o.Options (its database o.Work/user-NN.db, as RunUsers) and
// run at every unit of o.Units (default reproduce.PerConversationUnits);
// the pooled study runs at every unit of reproduce.PooledUnits that is run
// per conversation. Documents are embedded by o.UnitEncoder when set.
func RunUnits(o Options, pooled *reproduce.Study, dirs []string) (*reproduce.UnitsStudy, error) {
	base := o.Options
	u := &reproduce.UnitsStudy{Dataset: o.Name, Protocol: base.Protocol, PerConversation: map[string][]*beyond.UnitResult{}, Pooled: map[string]*beyond.UnitResult{}}
	if o.UnitEncoder != nil {
		u.EncoderModel, u.EncoderCap = o.UnitEncoder.Embedder.Model(), represent.DefaultEmbeddingCap
	}
	units := o.Units
	if len(units) == 0 {
		units = reproduce.PerConversationUnits
	}
	for i, dir := range dirs {
		s, err := prepareUser(o, i, dir)
		if err != nil {
			return nil, err
		}
		for _, unit := range units {
			r, err := runUnit(s, reproduce.UserLabel(i+1), unit, o.UnitEncoder)
			if err != nil {
				s.Close()
				return nil, fmt.Errorf("user %d (%s): %w", i+1, dir, err)
			}
			u.PerConversation[unit] = append(u.PerConversation[unit], r)
		}
		if err := s.Close(); err != nil {
			return nil, err
		}
		fmt.Fprintf(base.Log, "  units, user %d/%d\n", i+1, len(dirs))
	}
	for _, unit := range reproduce.PooledUnits {
		if !slices.Contains(units, unit) {
			continue
		}
		r, err := runUnit(pooled, reproduce.ScopePooled, unit, o.UnitEncoder)
		if err != nil {
			return nil, fmt.Errorf("pooled: %w", err)
		}
		u.Pooled[unit] = r
	}
	return u, nil
}

// runUnit runs one unit of a prepared study with its folder's native
// questions and turn keys.
func runUnit(s *reproduce.Study, label, unit string, enc *beyond.Encoder) (*beyond.UnitResult, error) {
	msgs, err := s.Messages()
	if err != nil {
		return nil, err
	}
	ev, ok, err := s.Evidence()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: no %s (the units study resolves gold per unit)", s.Opts.DataDir, datafolder.EvidenceFile)
	}
	native, err := readLines[datasets.NativeQuestion](filepath.Join(s.Opts.DataDir, datasets.NativeFile), "a native question {qid, user, category, question, evidence}")
	if err != nil {
		return nil, err
	}
	type key struct {
		MessageID string `json:"message_id"`
		Key       string `json:"key"`
	}
	ks, err := readLines[key](filepath.Join(s.Opts.DataDir, datasets.KeysFile), "a message key {message_id, key}")
	if err != nil {
		return nil, err
	}
	keys := make(map[string]string, len(ks))
	for _, k := range ks {
		keys[k.MessageID] = k.Key
	}
	return beyond.RunUnit(beyond.UnitInput{Label: label, Unit: unit, Messages: msgs, Evidence: ev, Questions: s.Questions,
		Native: native, Keys: keys, StudyChunks: s.Chunks, Summaries: s.Summaries, Protocol: s.Protocol, Encoder: enc})
}

// readLines reads a JSON-lines file of T; a line that does not decode is an
// error naming FILE:LINE and what was expected.
func readLines[T any](path, expected string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w (written by `linemem datasets convert`)", err)
	}
	defer f.Close()
	var out []T
	err = jsonl.Lines(path, f, func(line int, data []byte) error {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return inputerr.At(path, line, expected+": "+err.Error())
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// WriteRuns writes, for every scope of u at the turn and session units, the
// runs of beyond.UnitResult.UnitRuns as TREC run files named
// SCOPE_UNIT_RUN.run (scope "per_conversation" or "pooled"; the
// conversations of a scope one after another), whose document column is the
// ID LoCoMo's code compares: input for scripts/locomo_recall.py.
func WriteRuns(u *reproduce.UnitsStudy, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, sc := range u.Scopes() {
		if sc.Results[0].UnitRuns == nil {
			continue
		}
		scope := "per_conversation"
		if sc.Scope == reproduce.ScopePooled {
			scope = "pooled"
		}
		for _, key := range []string{beyond.RunRawBM25, beyond.RunSelected} {
			var b strings.Builder
			for _, r := range sc.Results {
				if err := trec.WriteRun(&b, r.SearchedQIDs, r.UnitRuns[key], "linemem"); err != nil {
					return written, err
				}
			}
			path := filepath.Join(dir, scope+"_"+sc.Unit+"_"+key+".run")
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				return written, err
			}
			written = append(written, path)
		}
	}
	return written, nil
}

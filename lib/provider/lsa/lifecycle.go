package lsa

import (
	"context"
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/represent"
)

// StateStore keeps fitted models by provider and model name;
// lib/provider/cache.Cache is one.
type StateStore interface {
	State(ctx context.Context, providerName, model string) ([]byte, bool, error)
	PutState(ctx context.Context, providerName, model string, state []byte) error
}

// Prepared is the model for one corpus: loaded from a StateStore, or fitted
// now and not yet stored (Fresh), so that a dry run stores nothing.
type Prepared struct {
	*Model
	Fresh bool // fitted by Prepare; Save stores it
}

// Prepare returns the model that fits texts with opts: the one stored under
// its name (ModelName of Resolve(texts, opts)) when there is one, else a
// model fitted now. The caller chooses and caps the texts (see
// lib/represent: FitTexts); refitting the same texts in the same order gives
// the same model, so vectors embedded by any run agree.
func Prepare(ctx context.Context, st StateStore, texts []string, opts Options) (Prepared, error) {
	resolved, err := Resolve(texts, opts)
	if err != nil {
		return Prepared{}, err
	}
	if m, found, err := Load(ctx, st, ModelName(resolved)); err != nil || found {
		return Prepared{Model: m}, err
	}
	m, err := Fit(texts, resolved)
	if err != nil {
		return Prepared{}, err
	}
	return Prepared{Model: m, Fresh: true}, nil
}

// Save stores a freshly fitted model under its name; it does nothing for a
// model that was loaded.
func (p Prepared) Save(ctx context.Context, st StateStore) error {
	if !p.Fresh {
		return nil
	}
	state, err := p.MarshalBinary()
	if err != nil {
		return err
	}
	return st.PutState(ctx, Name, p.Model.Model(), state)
}

// Load returns the model stored under name, found = false when none is.
func Load(ctx context.Context, st StateStore, name string) (m *Model, found bool, err error) {
	state, found, err := st.State(ctx, Name, name)
	if err != nil || !found {
		return nil, false, err
	}
	if m, err = Unmarshal(state); err != nil {
		return nil, false, fmt.Errorf("lsa: stored model %s: %w", name, err)
	}
	return m, true, nil
}

// IsModelName reports whether model names an lsa model (the prefix ModelName
// writes), i.e. one whose fitted state a StateStore may hold.
func IsModelName(model string) bool { return strings.HasPrefix(model, Name+"-") }

// FitTexts returns the texts a corpus's local model is fitted on, and the
// representation they are: each chunk's rep, or, with rep "", its
// embedding_text when every chunk has a summary and its raw_text otherwise;
// each text capped at inputCap characters as embedding inputs are (spec §7).
func FitTexts(chunks []chat.Chunk, summaries map[string]string, rep string, inputCap int) ([]string, string, error) {
	if rep == "" {
		rep = represent.EmbeddingTextRep
		for _, c := range chunks {
			if _, ok := summaries[c.ID]; !ok {
				rep = represent.RawText
				break
			}
		}
	}
	texts, err := represent.Texts(rep, chunks, summaries)
	if err != nil {
		return nil, rep, err
	}
	for i, t := range texts {
		texts[i], _ = represent.CapInput(t, inputCap)
	}
	return texts, rep, nil
}

// Reuse returns the first stored model among names (the models a database
// already holds vectors of) that was fitted with opts' tokenizer, vocabulary
// size, seed, oversampling and power iterations, when opts leaves the
// dimension to the data. New chunks are then folded into the model their
// neighbours were embedded with, so a grown history keeps its vectors and
// one model, instead of a refit whose data-chosen dimension differs;
// found = false when there is none, or when opts names a dimension.
func Reuse(ctx context.Context, st StateStore, names []string, opts Options) (m *Model, found bool, err error) {
	if opts.Dimension != 0 {
		return nil, false, nil
	}
	want := opts.withDefaults()
	for _, name := range names {
		if !IsModelName(name) {
			continue
		}
		m, found, err := Load(ctx, st, name)
		if err != nil {
			return nil, false, err
		}
		if !found {
			continue
		}
		got := m.Options()
		if got.Tokenizer == want.Tokenizer && got.VocabSize == want.VocabSize && got.Seed == want.Seed &&
			got.Oversample == want.Oversample && got.PowerIters == want.PowerIters && (want.MinDF == 0 || got.MinDF == want.MinDF) {
			return m, true, nil
		}
	}
	return nil, false, nil
}

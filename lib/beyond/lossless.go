package beyond

import (
	"fmt"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/trec"
)

// ChunkAll chunks every source's messages with opts (chunking.Build per
// source, sources in first-appearance order).
func ChunkAll(msgs []chat.Message, opts chunking.Options) ([]chat.Chunk, error) {
	bySource := map[string][]chat.Message{}
	var order []string
	for _, m := range msgs {
		if _, ok := bySource[m.Source]; !ok {
			order = append(order, m.Source)
		}
		bySource[m.Source] = append(bySource[m.Source], m)
	}
	var out []chat.Chunk
	for _, src := range order {
		cs, err := chunking.Build(bySource[src], opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// BorrowSummaries gives every chunk a summary: its own from summaries when
// its ID has one, else the summary of the chunk of from that shares the most
// messages with it (the first such chunk on ties; none shared: its raw_text
// cut to represent.ExcerptChars). borrowed counts the chunks that took
// another's summary or their raw_text. A lossless chunk left out of the
// shipped summaries is a continuation of a trimmed window, so the trimmed
// window's summary describes the same conversation.
func BorrowSummaries(chunks, from []chat.Chunk, summaries map[string]string) (out map[string]string, borrowed int) {
	holder := map[string][]int{}
	for i, c := range from {
		for _, m := range c.MessageIDs {
			holder[m] = append(holder[m], i)
		}
	}
	out = make(map[string]string, len(chunks))
	for _, c := range chunks {
		if s, ok := summaries[c.ID]; ok {
			out[c.ID] = s
			continue
		}
		borrowed++
		shared := map[int]int{}
		best := -1
		for _, m := range c.MessageIDs {
			for _, i := range holder[m] {
				shared[i]++
				if best < 0 || shared[i] > shared[best] || (shared[i] == shared[best] && i < best) {
					best = i
				}
			}
		}
		if s, ok := summaries[from[max(best, 0)].ID]; best >= 0 && ok {
			out[c.ID] = s
		} else {
			out[c.ID] = excerpt(c.RawText)
		}
	}
	return out, borrowed
}

// Protocol is a protocol run on one chunking.
type Protocol struct {
	Label    string
	Chunks   []chat.Chunk
	Gold     gold.Report
	Qrels    trec.Qrels
	Singles  []*experiment.Evaluation // the protocol's Singles order
	Selected *experiment.Evaluation   // the sweep's selected configuration
	Sweep    *experiment.Sweep
	Setup    *experiment.Setup
}

// ProtocolInput is what RunProtocol reads: one chunking of the messages,
// with the chunks' summaries, the evidence to resolve gold from and the
// questions, the protocol to run and, optionally, vectors to reuse.
type ProtocolInput struct {
	Label     string
	Chunks    []chat.Chunk
	Summaries map[string]string // by chunk ID
	Messages  []chat.Message
	Evidence  []gold.Evidence
	Questions []questions.Question
	Protocol  experiment.Protocol
	// Vectors, when not nil, are used under Model instead of a fresh fit
	// (the study's own vectors for its own chunks).
	Vectors retrieval.VectorSource
	Model   string
}

// RunProtocol resolves gold from in.Evidence over in.Chunks (gold.Resolve),
// fits the local LSA embedder on the chunks' capped embedding_text (as the
// study's local embedder does) and embeds summary and embedding_text unless
// in.Vectors is set, evaluates in.Protocol's single retrievers and its
// sweep over its pairings and weights with its tokenizer and bootstrap, and
// scores the selected configuration.
func RunProtocol(in ProtocolInput) (*Protocol, error) {
	label, chunks, summaries, vs, model := in.Label, in.Chunks, in.Summaries, in.Vectors, in.Model
	qrels, rep := gold.Resolve(in.Evidence, in.Messages, chunks)
	p := &Protocol{Label: label, Chunks: chunks, Gold: rep, Qrels: qrels}
	if vs == nil {
		reps := map[string][]string{}
		for _, r := range []string{represent.Summary, represent.EmbeddingTextRep} {
			t, err := represent.Texts(r, chunks, summaries)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", label, err)
			}
			reps[r] = t
		}
		fitted, err := FitVectors(chunks, reps[represent.EmbeddingTextRep], reps, lsa.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		vs, model = fitted, fitted.Model
	}
	var err error
	builder := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: summaries}, vs, retrieval.Options{Tokenizer: in.Protocol.Tokenizer, EmbedModel: model})
	p.Setup = &experiment.Setup{Questions: in.Questions, Qrels: qrels, Builder: builder, Protocol: in.Protocol}
	if p.Singles, err = p.Setup.EvaluateAll(in.Protocol.Singles); err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	sw, err := p.Setup.Sweep(in.Protocol.Pairings, in.Protocol.Betas)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	p.Sweep = sw
	cfg := sw.SelectedConfig()
	if p.Selected, err = p.Setup.Score(cfg.Name, sw.FusedRun(cfg)); err != nil {
		return nil, err
	}
	return p, nil
}

// AllQuestions returns metric for every question of qs, in order: the
// evaluated score, or 0 for a question without primary gold in this
// chunking (its evidence is in no chunk, so no ranking can find it).
func AllQuestions(ev *experiment.Evaluation, qs []questions.Question, metric string) []float64 {
	score := map[string]float64{}
	for i, q := range ev.Result.QIDs {
		score[q] = ev.Result.Scores(metric)[i]
	}
	out := make([]float64, len(qs))
	for i, q := range qs {
		out[i] = score[q.QID]
	}
	return out
}

package beyond

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/kagome"
	"github.com/linemem/linemem/lib/trec"
)

// AblationTokenizers are the BM25 tokenizers of the embedding_text ablation:
// the paper's and kagome.
var AblationTokenizers = []string{tokenize.Default, kagome.Name}

// AblationVariant is one way to compose the embedding_text of a chunk from
// its summary and raw_text.
type AblationVariant struct {
	Name string
	Text func(summary, rawText string) string
}

// AblationVariants are the components of embedding_text (paper §7.2), each
// alone, then the paper's composition (represent.EmbeddingText: prefix,
// summary, excerpt label, first represent.ExcerptChars of raw_text). The
// prefix is the same line for every chunk, so alone it carries no
// information about a chunk: its row is the floor, and LSA cannot be fitted
// on it (one distinct text).
var AblationVariants = []AblationVariant{
	{"prefix only", func(string, string) string { return represent.EmbeddingTextPrefix }},
	{"summary only", func(s, _ string) string { return s }},
	{"raw excerpt only", func(_, raw string) string { return excerpt(raw) }},
	{"summary + raw excerpt (paper)", represent.EmbeddingText},
}

// PaperVariant is the index of the paper's composition in AblationVariants.
const PaperVariant = 3

func excerpt(raw string) string {
	r := []rune(raw)
	return string(r[:min(len(r), represent.ExcerptChars)])
}

// AblationVector names the ablation's vector method: the local LSA model,
// fitted on each variant's texts.
const AblationVector = "vector (local LSA)"

// AblationMethod names the ablation's BM25 method under a tokenizer.
func AblationMethod(tokenizer string) string {
	return "BM25 " + tokenizer
}

// AblationRow is one variant under one method.
type AblationRow struct {
	Variant, Method string
	Eval            *experiment.Evaluation // nil when the method cannot run on the variant
	Skipped         string                 // why Eval is nil
	Diff            *Diff                  // vs the paper's variant under the same method; nil on that row
}

// AblationInput is what Ablation reads.
type AblationInput struct {
	Chunks     []chat.Chunk
	Summaries  map[string]string // by chunk ID; every chunk needs one
	Questions  []questions.Question
	Qrels      trec.Qrels
	Tokenizers []string // BM25 tokenizers, one method each; "" is Protocol.Tokenizer
	Protocol   experiment.Protocol
}

// Ablation evaluates every variant of AblationVariants under BM25 with each
// tokenizer of in.Tokenizers and then under the local LSA embedder (fitted
// on the variant's own texts, queries folded in), under in.Protocol (its
// metrics, B resamples from its seed) on the same questions and qrels; each
// row's Protocol.SelectionMetric is paired against the paper's variant
// under the same method at Protocol.Level, and Holm's correction runs over
// all those differences. A variant's text is indexed as if it were the
// summary representation (retrieval's summary_bm25 and summary_vector over
// a corpus whose summaries are the variant texts), so BM25 and the vector
// search are exactly the paper's.
func Ablation(in AblationInput) ([]AblationRow, error) {
	chunks, p := in.Chunks, in.Protocol
	texts := make([]map[string]string, len(AblationVariants))
	for v, av := range AblationVariants {
		texts[v] = make(map[string]string, len(chunks))
		for _, c := range chunks {
			s, ok := in.Summaries[c.ID]
			if !ok {
				return nil, fmt.Errorf("ablation: chunk %s has no summary", c.ID)
			}
			texts[v][c.ID] = av.Text(s, c.RawText)
		}
	}
	var rows []AblationRow
	for m := range len(in.Tokenizers) + 1 { // BM25 under each tokenizer, then the vectors
		vector := m == len(in.Tokenizers)
		tok, method := "", AblationVector
		if !vector {
			tok = cmp.Or(in.Tokenizers[m], p.Tokenizer)
			method = AblationMethod(tok)
		}
		start := len(rows)
		for v, av := range AblationVariants {
			row := AblationRow{Variant: av.Name, Method: method}
			ev, skipped, err := ablationEval(in, texts[v], tok, vector)
			if err != nil {
				return nil, fmt.Errorf("ablation %s, %s: %w", av.Name, row.Method, err)
			}
			row.Eval, row.Skipped = ev, skipped
			rows = append(rows, row)
		}
		paper := rows[start+PaperVariant].Eval
		if paper == nil {
			continue
		}
		ix := NewIndices(p, len(paper.Result.QIDs))
		for i := start; i < len(rows); i++ {
			if i == start+PaperVariant || rows[i].Eval == nil {
				continue
			}
			d := PairedDiff(ix, rows[i].Eval.Result.Scores(p.SelectionMetric), paper.Result.Scores(p.SelectionMetric), p.Level)
			rows[i].Diff = &d
		}
	}
	var diffs []*Diff
	for _, r := range rows {
		if r.Diff != nil {
			diffs = append(diffs, r.Diff)
		}
	}
	HolmAll(diffs)
	return rows, nil
}

// ablationEval evaluates summary_bm25 under tokenizer tok, or summary_vector
// of an LSA model fitted on texts when vector is set, over in's chunks,
// questions and qrels under in.Protocol.
func ablationEval(in AblationInput, texts map[string]string, tok string, vector bool) (*experiment.Evaluation, string, error) {
	chunks := in.Chunks
	corpus := retrieval.Corpus{Chunks: chunks, Summaries: texts}
	name := retrieval.Single{Rep: represent.Summary, Method: retrieval.MethodBM25}.Name()
	var vs retrieval.VectorSource
	opts := retrieval.Options{Tokenizer: tok}
	if vector {
		list := make([]string, len(chunks))
		distinct := map[string]bool{}
		for i, c := range chunks {
			list[i] = texts[c.ID]
			distinct[list[i]] = true
		}
		if len(distinct) < 2 {
			return nil, "every chunk has the same text; LSA has nothing to fit", nil
		}
		v, err := FitVectors(chunks, list, map[string][]string{represent.Summary: list}, lsa.Options{})
		if err != nil {
			if strings.Contains(err.Error(), "dimension") {
				return nil, err.Error(), nil
			}
			return nil, "", err
		}
		vs, opts = v, retrieval.Options{EmbedModel: v.Model}
		name = retrieval.Single{Rep: represent.Summary, Method: retrieval.MethodVector}.Name()
	}
	setup := &experiment.Setup{Questions: in.Questions, Qrels: in.Qrels, Builder: retrieval.NewBuilder(corpus, vs, opts), Protocol: in.Protocol}
	ev, err := setup.Evaluate(name)
	return ev, "", err
}

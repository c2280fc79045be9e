// Package analyzers measures the BM25 tokenizers on several data folders and
// picks the everyday default from the measurement: the analyzer table of the
// docs/your-history.md ("Choosing the everyday analyzer") and `linemem analyzers compare`.
//
// Each corpus is a data folder in the layout `linemem reproduce` reads:
// sources/ (LINE exports), questions.jsonl, and qrels.txt or, when there is
// none, evidence.jsonl resolved against the folder's own chunks (lib/gold).
// The chunks are the paper's windows (chunking.DefaultOptions) of every
// source, so chunk IDs are those `linemem ingest` stores. For every
// tokenizer the retriever is raw_text_bm25 (BM25 over raw_text, the paper's
// k1 and b); a question counts when it has a relevance-2 chunk. Recall@5
// and Success@1 are the means over the questions, with 95% percentile
// intervals over B paired bootstrap resamples of the questions (the same
// resamples for every tokenizer of a corpus).
//
// Imports: lib/chat, lib/chunking, lib/lineexport, lib/datafolder,
// lib/gold, lib/questions, lib/ranking, lib/retrieval, lib/experiment,
// lib/metrics and the standard library.
package analyzers

import (
	"fmt"
	"slices"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
)

// Metrics are the two measures of the table, in column order.
var Metrics = []string{metrics.Recall5, metrics.Success1}

// Retriever is the one retriever every tokenizer is measured with.
const Retriever = "raw_text_bm25"

// Baseline is the tokenizer a candidate must not fall behind (see Choose).
const Baseline = "char-bigram"

// Corpus is one data folder, loaded: its chunks, questions and qrels.
type Corpus struct {
	Name      string
	Chunks    []chat.Chunk
	Messages  []chat.Message
	Questions []questions.Question
	Qrels     ranking.Qrels
}

// LoadFolder reads the data folder dir as corpus name (see the package doc)
// with lib/datafolder's reader.
func LoadFolder(name, dir string) (*Corpus, error) {
	folder := datafolder.Folder(dir)
	inputs, err := folder.Sources()
	if err != nil {
		return nil, err
	}
	c := &Corpus{Name: name}
	for _, in := range inputs {
		res, err := lineexport.ReadFile(in.Path)
		if err != nil {
			return nil, err
		}
		chunks, err := chunking.Build(res.Messages, chunking.DefaultOptions())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Path, err)
		}
		c.Messages = append(c.Messages, res.Messages...)
		c.Chunks = append(c.Chunks, chunks...)
	}
	set, err := folder.QuestionSet()
	if err != nil {
		return nil, err
	}
	c.Questions, c.Qrels = set.Questions, set.Qrels
	if c.Qrels == nil {
		c.Qrels, _ = gold.Resolve(set.Evidence, c.Messages, c.Chunks)
	}
	return c, nil
}

// Cell is one tokenizer on one corpus.
type Cell struct {
	Tokenizer string
	Corpus    string
	Questions int                            // evaluated questions
	Scores    map[string]experiment.Interval // by Metrics name
}

// Table is every tokenizer on every corpus.
type Table struct {
	Tokenizers []string
	Corpora    []string
	Cells      map[string]map[string]Cell // tokenizer → corpus → cell
	B          int
	Seed       uint64
}

// Measure scores Retriever under every tokenizer on every corpus, under p
// with Metrics in place of its metrics: p.B resamples from p.Seed, p.Level
// intervals.
func Measure(corpora []*Corpus, tokenizers []string, p experiment.Protocol) (*Table, error) {
	t := &Table{Tokenizers: tokenizers, Cells: map[string]map[string]Cell{}, B: p.B, Seed: p.Seed}
	for _, tok := range tokenizers {
		t.Cells[tok] = map[string]Cell{}
	}
	proto := p
	proto.Metrics = Metrics
	for _, c := range corpora {
		t.Corpora = append(t.Corpora, c.Name)
		for _, tok := range tokenizers {
			builder := retrieval.NewBuilder(retrieval.Corpus{Chunks: c.Chunks}, nil, retrieval.Options{Tokenizer: tok, IndexDir: "-"})
			setup := &experiment.Setup{Questions: c.Questions, Qrels: c.Qrels, Builder: builder, Protocol: proto}
			ev, err := setup.Evaluate(Retriever)
			if err != nil {
				return nil, fmt.Errorf("%s, tokenizer %s: %w", c.Name, tok, err)
			}
			t.Cells[tok][c.Name] = Cell{Tokenizer: tok, Corpus: c.Name, Questions: len(ev.Result.QIDs), Scores: ev.CI}
		}
	}
	return t, nil
}

// Choice is the tokenizer Choose picks and why.
type Choice struct {
	Tokenizer string
	// Eligible lists the tokenizers that pass the rule, best first.
	Eligible []string
	// Behind names, for each tokenizer that fails, the first corpus and
	// metric where it falls below Baseline's interval.
	Behind map[string]string
}

// Choose applies the rule for the everyday default: a tokenizer is eligible
// when on every corpus and for both metrics its mean is at least Baseline's
// lower interval bound (never worse than char-bigram by more than its CI);
// of the eligible ones, the best overall has the highest mean over corpora
// of Recall@5, then of Success@1, then comes first in t.Tokenizers.
// Baseline is eligible by construction, so there is always a choice when
// Baseline was measured.
func Choose(t *Table) (Choice, error) {
	base, ok := t.Cells[Baseline]
	if !ok {
		return Choice{}, fmt.Errorf("the table has no %s row to compare with", Baseline)
	}
	ch := Choice{Behind: map[string]string{}}
	for _, tok := range t.Tokenizers {
		behind := ""
		for _, c := range t.Corpora {
			for _, m := range Metrics {
				if behind == "" && t.Cells[tok][c].Scores[m].Mean < base[c].Scores[m].Lo {
					behind = c + " " + m
				}
			}
		}
		if behind != "" {
			ch.Behind[tok] = behind
			continue
		}
		ch.Eligible = append(ch.Eligible, tok)
	}
	slices.SortStableFunc(ch.Eligible, func(a, b string) int {
		for _, m := range Metrics {
			if d := t.Overall(b, m) - t.Overall(a, m); d != 0 {
				if d > 0 {
					return 1
				}
				return -1
			}
		}
		return 0
	})
	ch.Tokenizer = ch.Eligible[0]
	return ch, nil
}

// Overall is the mean over the table's corpora of tok's metric m.
func (t *Table) Overall(tok, m string) float64 {
	s := 0.0
	for _, c := range t.Corpora {
		s += t.Cells[tok][c].Scores[m].Mean
	}
	return s / float64(len(t.Corpora))
}

// Report lays t out as docs/your-history.md's table: one row per tokenizer, for each
// corpus Recall@5 and Success@1 with their intervals, then the means over
// corpora; the notes say how many questions each corpus has and what ch
// picked.
func (t *Table) Report(ch Choice) report.Table {
	cols := []string{"tokenizer"}
	for _, c := range t.Corpora {
		cols = append(cols, c+" R@5", c+" S@1")
	}
	cols = append(cols, "mean R@5", "mean S@1")
	rt := report.Table{Slug: "everyday_analyzers", Caption: "BM25 over raw_text under each tokenizer (95% bootstrap intervals)", Columns: cols}
	for _, tok := range t.Tokenizers {
		row := []string{tok}
		for _, c := range t.Corpora {
			for _, m := range Metrics {
				iv := t.Cells[tok][c].Scores[m]
				row = append(row, fmt.Sprintf("%.3f [%.3f, %.3f]", iv.Mean, iv.Lo, iv.Hi))
			}
		}
		for _, m := range Metrics {
			row = append(row, fmt.Sprintf("%.3f", t.Overall(tok, m)))
		}
		rt.Rows = append(rt.Rows, row)
	}
	counts := ""
	for i, c := range t.Corpora {
		if i > 0 {
			counts += ", "
		}
		counts += fmt.Sprintf("%s %d", c, t.Cells[t.Tokenizers[0]][c].Questions)
	}
	rt.Notes = append(rt.Notes,
		fmt.Sprintf("Questions evaluated: %s. Intervals: %d paired resamples of the questions, seed %d.", counts, t.B, t.Seed),
		fmt.Sprintf("Rule: eligible when every mean is at least %s's lower bound on every corpus; the best eligible by mean Recall@5, then Success@1. Chosen: %s.", Baseline, ch.Tokenizer))
	for _, tok := range t.Tokenizers {
		if where, ok := ch.Behind[tok]; ok {
			rt.Notes = append(rt.Notes, fmt.Sprintf("%s is not eligible: below %s's interval on %s.", tok, Baseline, where))
		}
	}
	return rt
}

package analyzers_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
	"github.com/linemem/linemem/lib/experiment"
)

// table builds a Table from means and lower bounds: cells[tok][corpus] =
// {R@5 mean, R@5 lo, S@1 mean, S@1 lo}.
func table(cells map[string]map[string][4]float64, toks, corpora []string) *analyzers.Table {
	t := &analyzers.Table{Tokenizers: toks, Corpora: corpora, Cells: map[string]map[string]analyzers.Cell{}}
	for tok, byCorpus := range cells {
		t.Cells[tok] = map[string]analyzers.Cell{}
		for c, v := range byCorpus {
			t.Cells[tok][c] = analyzers.Cell{Tokenizer: tok, Corpus: c, Scores: map[string]experiment.Interval{
				"recall@5":  {Mean: v[0], Lo: v[1], Hi: 1},
				"success@1": {Mean: v[2], Lo: v[3], Hi: 1},
			}}
		}
	}
	return t
}

func TestChoose(t *testing.T) {
	corpora := []string{"a", "b"}
	toks := []string{"char-bigram", "everyday", "kagome"}
	cases := []struct {
		name     string
		cells    map[string]map[string][4]float64
		want     string
		eligible []string
		behind   map[string]string
	}{
		{
			name: "best eligible by mean Recall@5",
			cells: map[string]map[string][4]float64{
				"char-bigram": {"a": {0.5, 0.4, 0.3, 0.2}, "b": {0.5, 0.4, 0.3, 0.2}},
				"everyday":    {"a": {0.7, 0.6, 0.3, 0.2}, "b": {0.45, 0.3, 0.3, 0.2}}, // b: 0.45 ≥ 0.4
				"kagome":      {"a": {0.9, 0.8, 0.6, 0.5}, "b": {0.35, 0.2, 0.3, 0.2}}, // b: 0.35 < 0.4
			},
			want: "everyday", eligible: []string{"everyday", "char-bigram"}, behind: map[string]string{"kagome": "b recall@5"},
		},
		{
			name: "Success@1 counts too",
			cells: map[string]map[string][4]float64{
				"char-bigram": {"a": {0.5, 0.4, 0.3, 0.2}, "b": {0.5, 0.4, 0.3, 0.2}},
				"everyday":    {"a": {0.9, 0.8, 0.1, 0.0}, "b": {0.9, 0.8, 0.3, 0.2}}, // a: S@1 0.1 < 0.2
				"kagome":      {"a": {0.5, 0.4, 0.3, 0.2}, "b": {0.5, 0.4, 0.4, 0.3}},
			},
			want: "kagome", eligible: []string{"kagome", "char-bigram"}, behind: map[string]string{"everyday": "a success@1"},
		},
		{
			name: "tie on both means: table order",
			cells: map[string]map[string][4]float64{
				"char-bigram": {"a": {0.5, 0.4, 0.3, 0.2}, "b": {0.5, 0.4, 0.3, 0.2}},
				"everyday":    {"a": {0.5, 0.4, 0.3, 0.2}, "b": {0.5, 0.4, 0.3, 0.2}},
				"kagome":      {"a": {0.4, 0.3, 0.3, 0.2}, "b": {0.4, 0.3, 0.3, 0.2}},
			},
			want: "char-bigram", eligible: []string{"char-bigram", "everyday", "kagome"}, behind: map[string]string{},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch, err := analyzers.Choose(table(c.cells, toks, corpora))
			if err != nil {
				t.Fatal(err)
			}
			if ch.Tokenizer != c.want || !slices.Equal(ch.Eligible, c.eligible) || len(ch.Behind) != len(c.behind) {
				t.Fatalf("Choose = %+v, want %s, eligible %v, behind %v", ch, c.want, c.eligible, c.behind)
			}
			for tok, where := range c.behind {
				if ch.Behind[tok] != where {
					t.Errorf("Behind[%s] = %q, want %q", tok, ch.Behind[tok], where)
				}
			}
		})
	}
}

func TestChooseNeedsBaseline(t *testing.T) {
	tb := table(map[string]map[string][4]float64{"everyday": {"a": {1, 1, 1, 1}}}, []string{"everyday"}, []string{"a"})
	if _, err := analyzers.Choose(tb); err == nil {
		t.Fatal("Choose without a char-bigram row: no error")
	}
}

// TestMixedHistoryFolder loads the hand-written mixed-language history and
// measures two tokenizers on it: every question has its gold resolved.
func TestMixedHistoryFolder(t *testing.T) {
	c, err := analyzers.LoadFolder("mixed", filepath.Join("..", "..", "testdata", "mixed"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Messages) < 300 || len(c.Questions) < 15 {
		t.Fatalf("%d messages, %d questions; want ≥ 300 and ≥ 15", len(c.Messages), len(c.Questions))
	}
	for _, q := range c.Questions {
		if len(c.Qrels[q.QID]) == 0 {
			t.Errorf("%s: no gold chunk", q.QID)
		}
	}
	p := experiment.PaperProtocol()
	p.B, p.Seed = 200, 1
	tb, err := analyzers.Measure([]*analyzers.Corpus{c}, []string{"char-bigram", "everyday"}, p)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range tb.Tokenizers {
		cell := tb.Cells[tok]["mixed"]
		if cell.Questions != len(c.Questions) {
			t.Errorf("%s: %d questions evaluated, want %d", tok, cell.Questions, len(c.Questions))
		}
		for _, m := range analyzers.Metrics {
			iv := cell.Scores[m]
			if !(0 <= iv.Lo && iv.Lo <= iv.Mean && iv.Mean <= iv.Hi && iv.Hi <= 1) {
				t.Errorf("%s %s: interval %+v is not ordered within [0, 1]", tok, m, iv)
			}
		}
	}
}

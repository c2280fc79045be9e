package retrieval_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/diversify"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/hierarchy"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
)

func TestParseNameRemedies(t *testing.T) {
	rb := retrieval.Single{Rep: "raw_text", Method: "bm25"}
	eb := retrieval.Single{Rep: "embedding_text", Method: "bm25"}
	ev := retrieval.Single{Rep: "embedding_text", Method: "vector"}
	sv := retrieval.Single{Rep: "summary", Method: "vector"}
	cases := []struct {
		name string
		want retrieval.Spec
	}{
		{"mmr:raw_text_bm25@0.80", retrieval.Spec{Single: rb, Remedy: "mmr", Weight: 0.8}},
		{"mmr:hybrid:embedding_text_bm25+embedding_text_vector@0.40@0.80", retrieval.Spec{Fusion: "hybrid", BM25: eb, Vector: ev, Beta: 0.4, Remedy: "mmr", Weight: 0.8}},
		{"mmr:zscore:embedding_text_bm25+summary_vector@0.50@0.00", retrieval.Spec{Fusion: "zscore", BM25: eb, Vector: sv, Beta: 0.5, Remedy: "mmr"}},
		{"period:summary_vector@0.20", retrieval.Spec{Single: sv, Remedy: "period", Weight: 0.2}},
		{"period:rrf:embedding_text_bm25+embedding_text_vector@1.00", retrieval.Spec{Fusion: "rrf", BM25: eb, Vector: ev, Remedy: "period", Weight: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := retrieval.ParseName(c.name)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("ParseName = %+v, want %+v", got, c.want)
			}
			if got.String() != c.name {
				t.Errorf("String() = %q, want the name back", got.String())
			}
			base := c.name[len(c.want.Remedy)+1 : strings.LastIndex(c.name, "@")]
			if got.Base().String() != base || got.Base().Remedy != "" {
				t.Errorf("Base() = %q, want %q", got.Base().String(), base)
			}
		})
	}
}

func TestBaseOfPlainSpecIsItself(t *testing.T) {
	for _, name := range []string{"summary_bm25", "hybrid:summary_bm25+summary_vector@0.50", "rrf:raw_text_bm25+summary_vector"} {
		s, err := retrieval.ParseName(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Base() != s || s.Remedy != "" {
			t.Errorf("%s: Base() = %+v, want %+v", name, s.Base(), s)
		}
	}
}

func TestParseNameRemedyErrors(t *testing.T) {
	cases := []struct{ name, want string }{
		{"mmr:raw_text_bm25", "expected mmr:{retriever}@{weight}"},
		{"mmr:raw_text_bm25@0.8", "mmr weight with two decimals"},
		{"period:raw_text_bm25@1.50", "period weight with two decimals"},
		{"mmr:period:raw_text_bm25@0.20@0.80", "remedies do not nest"},
		{"period:hybrid:summary_bm25+summary_vector@0.80", "@{β}"},
		{"period:title_bm25@0.20", `unknown representation "title"`},
		{"mmr:@0.50", "expected {rep}_bm25"},
		{"mmr:hybrid:summary_vector+summary_bm25@0.50@0.80", "_bm25 retriever before +"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := retrieval.ParseName(c.name)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func remedyCorpus() retrieval.Corpus {
	return retrieval.Corpus{
		Chunks: []chat.Chunk{
			{ID: "c1", Source: "club.json", StartAt: "2024-03-10T10:00:00", RawText: "2024-03-10 10:00 A: 合宿の予算"},
			{ID: "c2", Source: "club.json", StartAt: "2024-03-12T10:00:00", RawText: "2024-03-12 10:00 A: 合宿の予算と合宿の部屋"},
			{ID: "c3", Source: "family.json", StartAt: "2024-03-11T10:00:00", RawText: "2024-03-11 10:00 B: 合宿の送迎"},
			{ID: "c4", Source: "club.json", StartAt: "2024-05-01T10:00:00", RawText: "2024-05-01 10:00 A: 合宿の写真"},
		},
		Summaries: map[string]string{"c1": "合宿の予算", "c2": "合宿の部屋割り", "c3": "合宿への送迎", "c4": "試験"},
	}
}

// TestRemedyRetrievers checks that a remedy's ranking is its package's
// reordering of the base's top fusion.Depth, one query at a time and batched.
func TestRemedyRetrievers(t *testing.T) {
	c := remedyCorpus()
	tok, err := tokenize.New(tokenize.Default)
	if err != nil {
		t.Fatal(err)
	}
	units := hierarchy.Build(c.Chunks, c.Summaries, tok)
	queries := []string{"合宿の予算", "送迎", "ひらがな"}
	cases := []struct {
		name, base string
		want       func(q string, base []ranking.Hit) ([]ranking.Hit, error)
	}{
		{"mmr:raw_text_bm25@0.50", "raw_text_bm25", func(_ string, base []ranking.Hit) ([]ranking.Hit, error) {
			return diversify.MMR(base, 0.5, diversify.BySource(c.Chunks))
		}},
		{"period:raw_text_bm25@0.30", "raw_text_bm25", func(q string, base []ranking.Hit) ([]ranking.Hit, error) {
			return units.Fuse(base, units.Search(q, 0), 0.3)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := retrieval.NewBuilder(c, nil, retrieval.Options{})
			r, err := b.Build(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if r.Name() != tc.name {
				t.Errorf("Name() = %q", r.Name())
			}
			base, err := b.Build(tc.base)
			if err != nil {
				t.Fatal(err)
			}
			batch, err := retrieval.SearchAll(r, queries, 2)
			if err != nil {
				t.Fatal(err)
			}
			for i, q := range queries {
				bh, _ := base.Search(q, fusion.Depth)
				want, err := tc.want(q, bh)
				if err != nil {
					t.Fatal(err)
				}
				got, err := r.Search(q, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%q: Search = %v, want %v", q, got, want)
				}
				if k := min(2, len(want)); !slices.Equal(batch[i], want[:k]) {
					t.Errorf("%q: SearchBatch = %v, want %v", q, batch[i], want[:k])
				}
			}
		})
	}
}

// TestMMRPromotesOtherSource spells one ranking out: raw_text_bm25 ranks the
// two club chunks holding 予算 first and the family chunk c3, which holds
// only 合宿, last or tied last; MMR at λ = 0.5 lifts c3 to second.
func TestMMRPromotesOtherSource(t *testing.T) {
	b := retrieval.NewBuilder(remedyCorpus(), nil, retrieval.Options{})
	ids := func(name string) []string {
		r, err := b.Build(name)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := r.Search("合宿の予算", 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h.ChunkID)
		}
		return out
	}
	base, mmr := ids("raw_text_bm25"), ids("mmr:raw_text_bm25@0.50")
	if len(base) != 4 || slices.Index(base, "c3") < 2 {
		t.Fatalf("base ranking %q: want the family chunk c3 below both club chunks", base)
	}
	if mmr[1] != "c3" || mmr[0] != base[0] {
		t.Errorf("mmr ranking %q from base %q: want the base's first, then c3", mmr, base)
	}
}

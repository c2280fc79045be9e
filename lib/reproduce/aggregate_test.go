package reproduce_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/reproduce"
)

func conformanceStudy(t *testing.T) *reproduce.Study {
	t.Helper()
	s, err := reproduce.Prepare(paperOptions(conformance.Dir(), filepath.Join(t.TempDir(), "conf.db"), 200))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestAggregateRemedies(t *testing.T) {
	s := conformanceStudy(t)
	tab, err := table(s, reproduce.AggregateSlug)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Validate(); err != nil {
		t.Fatal(err)
	}
	if tab.Number != 0 || tab.BaseName() != "beyond_aggregate" {
		t.Errorf("table %d %q, want unnumbered beyond_aggregate", tab.Number, tab.BaseName())
	}
	best, cfg, err := s.Selected()
	if err != nil {
		t.Fatal(err)
	}
	types := append([]string{"overall"}, best.Result.TypeOrder...)
	if len(tab.Rows) != 3*len(types) {
		t.Fatalf("%d rows, want 3 methods × %d types", len(tab.Rows), len(types))
	}
	methods := []string{"selected hybrid", "+ mmr λ = 0.90", "+ period γ = 0.15"}
	for i, row := range tab.Rows {
		if row[0] != types[i/3] || row[2] != methods[i%3] {
			t.Errorf("row %d = %q, want type %s, method %s", i, row[:3], types[i/3], methods[i%3])
		}
		if base := i%3 == 0; base != (row[7] == "" && row[8] == "") {
			t.Errorf("row %d: differences %q, %q; want them only for remedies", i, row[7], row[8])
		}
	}
	if !strings.Contains(strings.Join(tab.Notes, " "), cfg.Name) {
		t.Errorf("notes %q do not name the selected hybrid %s", tab.Notes, cfg.Name)
	}
}

func TestCompareRemedies(t *testing.T) {
	s := conformanceStudy(t)
	best, cfg, err := s.Selected()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := beyond.CompareRemedies(s.Outcome, []string{cfg.Name, cfg.Name, "mmr:" + cfg.Name + "@0.50"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3*(1+len(best.Result.TypeOrder)) {
		t.Fatalf("%d rows", len(rows))
	}
	overall := rows[0]
	if overall.Type != "overall" || overall.Questions != len(best.Result.QIDs) || overall.Diffs != nil {
		t.Errorf("first row %+v, want the base overall without differences", overall)
	}
	for _, m := range beyond.AggregateMetrics {
		if want, ok := best.Result.Mean[m]; ok && overall.Scores[m].Mean != want {
			t.Errorf("overall %s = %v, want the selected hybrid's %v", m, overall.Scores[m].Mean, want)
		}
		if d := rows[1].Diffs[m]; d.Mean != 0 || d.Lo != 0 || d.Hi != 0 {
			t.Errorf("base − base %s = %+v, want zeros", m, d)
		}
		if rows[2].Diffs[m].Lo > rows[2].Diffs[m].Mean || rows[2].Diffs[m].Mean > rows[2].Diffs[m].Hi {
			t.Errorf("mmr − base %s = %+v: mean outside its interval", m, rows[2].Diffs[m])
		}
	}
	for _, r := range rows[3:] {
		if r.Questions != best.Result.ByType[r.Type].Questions {
			t.Errorf("%s: %d questions, want %d", r.Type, r.Questions, best.Result.ByType[r.Type].Questions)
		}
	}
}

func TestCompareRemediesErrors(t *testing.T) {
	s := conformanceStudy(t)
	cases := []struct {
		name  string
		names []string
		want  string
	}{
		{"no names", nil, "no retriever names"},
		{"bad weight", []string{"raw_text_bm25", "mmr:raw_text_bm25@2.00"}, "two decimals"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := beyond.CompareRemedies(s.Outcome, c.names)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

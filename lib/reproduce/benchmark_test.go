package reproduce_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/robustness"
)

func fakeUsers(t *testing.T) *reproduce.Users {
	t.Helper()
	sum, err := robustness.Aggregate([]robustness.SeedResult{
		seedResult(1, 0.40, 0.05, 0.70, "E-BM25+E-Vec", 0.45),  // singles rise in Table 3's order
		seedResult(2, 0.60, -0.05, 0.62, "E-BM25+S-Vec", 0.50), // singles fall: raw_text_bm25 best
	}, func() experiment.Protocol { p := experiment.PaperProtocol(); p.B = 500; return p }())
	if err != nil {
		t.Fatal(err)
	}
	return &reproduce.Users{Dataset: "Test", Summary: sum, EmbedModel: "lsa-test",
		Opts: reproduce.PaperOptions("", "")}
}

func TestSingleOrder(t *testing.T) {
	u := fakeUsers(t)
	if got, want := reproduce.SingleOrder(u.Results[0]), "E-BM25 > E-Vec > S-Vec > S-BM25 > R-BM25"; got != want {
		t.Errorf("order of user 1 = %q, want %q", got, want)
	}
	if got, want := reproduce.SingleOrder(u.Results[1]), "R-BM25 > S-BM25 > S-Vec > E-Vec > E-BM25"; got != want {
		t.Errorf("order of user 2 = %q, want %q", got, want)
	}
}

func TestUsersTables(t *testing.T) {
	u := fakeUsers(t)
	per := u.PerUserTable()
	if len(per.Rows) != 2 || per.Rows[0][0] != "user 01" || per.Rows[1][5] != "R-BM25" || per.Rows[0][7] != "0.45" {
		t.Errorf("per-user rows = %v", per.Rows)
	}
	// A random top 5 of the user's 19 chunks: Recall@5 = 5/19.
	u.Results[0].Chunks = 19
	per = u.PerUserTable()
	if got, want := per.Rows[0][2], report.F3(5.0/19); got != want {
		t.Errorf("random cell = %q, want %q", got, want)
	}
	// User 1: hybrid 0.70 with ±0.1; gain 0.70 − 0.60 = +0.100 with ±0.05.
	if got, want := per.Rows[0][8], "0.700 [0.600, 0.800]"; got != want {
		t.Errorf("hybrid cell = %q, want %q", got, want)
	}
	if got, want := per.Rows[0][9], "+0.100 [0.050, 0.150]"; got != want {
		t.Errorf("gain cell = %q, want %q", got, want)
	}
	claims := u.ClaimsTable()
	if claims.Rows[0][2] != "1 of 2" { // embedding_text_bm25 best: user 1 only
		t.Errorf("first claim holds on %q, want 1 of 2", claims.Rows[0][2])
	}
	dir := t.TempDir()
	if _, err := u.WriteAll(dir); err != nil {
		t.Fatal(err)
	}
	back, err := reproduce.LoadUsers(filepath.Join(dir, reproduce.BenchmarkUsersFile))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := back.DistributionTable().Rows, u.DistributionTable().Rows; len(got) != len(want) || strings.Join(got[0], "|") != strings.Join(want[0], "|") {
		t.Errorf("reloaded users differ: %v vs %v", got[0], want[0])
	}
}

func TestComparisonReadsSyntheticFiles(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, reproduce.RobustnessSlug+".csv"), []byte("Retriever,Metric,Mean,Seed CI,Question CI,Seed 1,Paper\nraw_text_bm25,Recall@5,0.483,\"[0.476, 0.489]\",\"[0.388, 0.577]\",0.476,0.427\nraw_text_bm25,MRR@5,0.4,\"[0.3, 0.5]\",\"[0.3, 0.5]\",0.4,0.3\n"), 0o644))
	claim := robustness.Claims[0].Statement
	must(os.WriteFile(filepath.Join(dir, reproduce.RobustnessClaimsSlug+".csv"), []byte("Statement,Paper,Holds on,Share\n\""+claim+"\",yes,14 of 20,70.0%\n"), 0o644))
	c, err := reproduce.NewComparison(dir, []*reproduce.Users{fakeUsers(t)})
	must(err)
	claims := c.ClaimsTable()
	if got := claims.Rows[0]; got[2] != "14 of 20" || got[3] != "1 of 2" {
		t.Errorf("claims row = %v, want 14 of 20 and 1 of 2", got)
	}
	rec := c.RecallTable()
	if got := rec.Rows[0]; got[0] != "raw_text_bm25" || got[1] != "0.483 [0.476, 0.489]" {
		t.Errorf("recall row = %v", got)
	}
	if rec.Rows[1][1] != "–" { // no synthetic row for summary_bm25 in this file
		t.Errorf("missing synthetic value shown as %q", rec.Rows[1][1])
	}
	if _, err := c.Figure(); err != nil {
		t.Error(err)
	}
	if _, err := reproduce.NewComparison(t.TempDir(), []*reproduce.Users{fakeUsers(t)}); err == nil || !strings.Contains(err.Error(), "make robustness") {
		t.Errorf("missing synthetic files: error %v, want one naming make robustness", err)
	}
}

package reproduce_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
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
	if got, want := reproduce.SingleOrder(u.Results[0], u.Opts.Protocol.SelectionMetric), "E-BM25 > E-Vec > S-Vec > S-BM25 > R-BM25"; got != want {
		t.Errorf("order of user 1 = %q, want %q", got, want)
	}
	if got, want := reproduce.SingleOrder(u.Results[1], u.Opts.Protocol.SelectionMetric), "R-BM25 > S-BM25 > S-Vec > E-Vec > E-BM25"; got != want {
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

// TestComparisonReadsSavedSeeds writes a multi-seed run as `linemem
// robustness` does and checks that the comparison shows its numbers: the
// seeds on which each statement holds and the mean Recall@5 with its
// seed-level interval, as the run's own tables do.
func TestComparisonReadsSavedSeeds(t *testing.T) {
	seeds := fakeRobustness(t)
	dir := t.TempDir()
	if _, err := seeds.WriteAll(dir); err != nil {
		t.Fatal(err)
	}
	c, err := reproduce.NewComparison(dir, []*reproduce.Users{fakeUsers(t)})
	if err != nil {
		t.Fatal(err)
	}
	claims := c.ClaimsTable()
	if got, want := claims.Rows[0][2], fmt.Sprintf("%d of %d", seeds.Claims[0].Seeds, len(seeds.Seeds)); got != want {
		t.Errorf("claims row %v: seeds cell %q, want %q", claims.Rows[0], got, want)
	}
	if got := claims.Rows[0][3]; got != "1 of 2" {
		t.Errorf("claims row %v: users cell %q, want 1 of 2", claims.Rows[0], got)
	}
	rec := c.RecallTable()
	row, _ := seeds.Row("raw_text_bm25", metrics.Recall5)
	if got, want := rec.Rows[0][1], report.F3(row.Mean)+" "+report.CI3(row.SeedCI.Lo, row.SeedCI.Hi); rec.Rows[0][0] != "raw_text_bm25" || got != want {
		t.Errorf("recall row %v: seeds cell %q, want %q", rec.Rows[0], got, want)
	}
	if _, err := c.Figure(); err != nil {
		t.Error(err)
	}
	if _, err := reproduce.NewComparison(t.TempDir(), []*reproduce.Users{fakeUsers(t)}); err == nil || !strings.Contains(err.Error(), "make robustness") {
		t.Errorf("missing saved seeds: error %v, want one naming make robustness", err)
	}
}

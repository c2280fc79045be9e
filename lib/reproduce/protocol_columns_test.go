package reproduce_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/reproduce"
)

// at10Options are the conformance study's options under a protocol that
// evaluates Recall@10 and nDCG@10 only, selecting by Recall@10.
func at10Options(t *testing.T, artefacts []string) reproduce.Options {
	o := paperOptions(conformance.Dir(), filepath.Join(t.TempDir(), "conf.db"), 200)
	o.Protocol.Metrics, o.Protocol.SelectionMetric = []string{metrics.Recall10, "ndcg@10"}, metrics.Recall10
	o.Artefacts = artefacts
	return o
}

// Table 3's interval columns are the protocol's metrics: under {recall@10,
// ndcg@10} it reports those two, every cell from the evaluation, none of
// them the zeros of a metric nobody evaluated.
func TestTable3FollowsTheProtocolMetrics(t *testing.T) {
	s, err := reproduce.Prepare(at10Options(t, []string{"table3", "figure1", "figure2", "table5"}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tab, err := table(s, "table3")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Method", "Recall@10 (95% CI)", "nDCG@10 (95% CI)"}; !slices.Equal(tab.Columns, want) {
		t.Errorf("columns %q, want %q", tab.Columns, want)
	}
	singles, err := s.Singles()
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range singles {
		row := tab.Rows[i]
		for j, m := range []string{metrics.Recall10, "ndcg@10"} {
			iv := ev.CI[m]
			want := fmt.Sprintf("%.3f [%.3f, %.3f]", ev.Result.Mean[m], iv.Lo, iv.Hi)
			if row[1+j] != want || iv.Hi == 0 {
				t.Errorf("%s %s cell %q, want %q from its evaluation", ev.Name, m, row[1+j], want)
			}
		}
	}
	for _, slug := range []string{"figure1", "figure2", "table5"} {
		if _, err := reproduce.Build(s, slug); err != nil {
			t.Errorf("%s under {recall@10, ndcg@10}: %v", slug, err)
		}
	}
}

// An artefact that reads a metric the protocol does not evaluate is refused:
// by Prepare before anything is ingested, and by Build.
func TestAMissingMetricIsAnError(t *testing.T) {
	for _, artefacts := range [][]string{nil, {"figure3"}} {
		_, err := reproduce.Prepare(at10Options(t, artefacts))
		if err == nil || !strings.Contains(err.Error(), "figure3 needs the metric ndcg@5") {
			t.Errorf("Prepare for %v: error %v, want figure3 needing ndcg@5", artefacts, err)
		}
	}
	s, err := reproduce.Prepare(at10Options(t, []string{"table3"}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := reproduce.Build(s, "figure3"); err == nil || !strings.Contains(err.Error(), "ndcg@5") {
		t.Errorf("Build figure3: error %v, want one naming ndcg@5", err)
	}
	if _, err := s.WriteAll(t.TempDir()); err == nil {
		t.Error("WriteAll under a protocol figure3 cannot be built from: no error")
	}
}

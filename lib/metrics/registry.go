package metrics

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/ranking"
)

// Func scores one question's ranked list against that question's judgments
// (chunk ID → rel; nil when the question has none) at cutoff k.
type Func func(ranked []ranking.Hit, judged map[string]int, k int) float64

// families maps a metric family to its function; names are "{family}@{k}".
// It is the only list of metrics: Parse and its error message read it.
var families = map[string]Func{
	"recall":  Recall,
	"mrr":     MRR,
	"success": Success,
	"ndcg":    NDCG,
	// LongMemEval's retrieval metrics (native.go).
	"recall_any": RecallAny,
	"recall_all": RecallAll,
	"ndcg_any":   NDCGAny,
}

// Metric is a parsed metric name such as "ndcg@5".
type Metric struct {
	Name   string // canonical name, "{Family}@{K}"
	Family string // "recall", "mrr", "success" or "ndcg"
	K      int    // cutoff, ≥ 1
	fn     Func
}

// Score applies the metric to one question.
func (m Metric) Score(ranked []ranking.Hit, judged map[string]int) float64 {
	return m.fn(ranked, judged, m.K)
}

// Families returns the registered metric families, sorted.
func Families() []string {
	names := make([]string, 0, len(families))
	for name := range families {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Parse reads a metric name "{family}@{k}" with k a decimal integer ≥ 1, for
// example "recall@5", "mrr@10", "success@20", "ndcg@5". The family is
// case-sensitive. An unknown family or a bad cutoff is an error that lists the
// known families.
func Parse(name string) (Metric, error) {
	family, cutoff, ok := strings.Cut(name, "@")
	fn, known := families[family]
	k, err := strconv.Atoi(cutoff)
	if !ok || !known || err != nil || k < 1 || strconv.Itoa(k) != cutoff {
		return Metric{}, fmt.Errorf("metrics: unknown metric %q; want FAMILY@K with K ≥ 1 and FAMILY one of %s",
			name, strings.Join(Families(), ", "))
	}
	return Metric{Name: name, Family: family, K: k, fn: fn}, nil
}

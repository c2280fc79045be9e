package metrics_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// confTol is the conformance pack's stated agreement for macro metrics.
const confTol = 1e-9

type expectedEval struct {
	Retrievers []struct {
		Name         string                        `json:"name"`
		Run          string                        `json:"run"`
		Questions    int                           `json:"questions"`
		Excluded     int                           `json:"excluded"`
		ExcludedQIDs []string                      `json:"excluded_qids"`
		ByType       map[string]map[string]float64 `json:"by_type"`
	} `json:"retrievers"`
}

var confMetrics = []string{"recall@5", "mrr@5", "ndcg@5", "success@5"}

func TestEvaluateConformance(t *testing.T) {
	qs, qrels := conformance.QuestionSet(t)
	var exp expectedEval
	conformance.ReadJSON(t, "expected_eval.json", &exp)
	var raw struct {
		Retrievers []map[string]any `json:"retrievers"`
	}
	conformance.ReadJSON(t, "expected_eval.json", &raw)
	if len(exp.Retrievers) == 0 {
		t.Fatal("no retrievers in expected_eval.json")
	}
	for i, want := range exp.Retrievers {
		t.Run(want.Name, func(t *testing.T) {
			run := conformance.ReadRun(t, want.Run)
			res, err := metrics.Evaluate(qs, qrels, run, confMetrics)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.QIDs) != want.Questions || len(res.Excluded) != want.Excluded || !slices.Equal(res.Excluded, want.ExcludedQIDs) {
				t.Errorf("questions %d excluded %v, want %d %v", len(res.QIDs), res.Excluded, want.Questions, want.ExcludedQIDs)
			}
			for _, m := range confMetrics {
				if got, w := res.Mean[m], raw.Retrievers[i][m].(float64); math.Abs(got-w) > confTol {
					t.Errorf("%s = %.17g, want %.17g", m, got, w)
				}
			}
			if len(res.ByType) != len(want.ByType) {
				t.Errorf("types %v, want %v", res.TypeOrder, want.ByType)
			}
			for typ, wm := range want.ByType {
				got, ok := res.ByType[typ]
				if !ok {
					t.Errorf("type %s missing", typ)
					continue
				}
				if got.Questions != int(wm["questions"]) {
					t.Errorf("%s questions = %d, want %v", typ, got.Questions, wm["questions"])
				}
				for _, m := range confMetrics {
					if math.Abs(got.Mean[m]-wm[m]) > confTol {
						t.Errorf("%s %s = %.17g, want %.17g", typ, m, got.Mean[m], wm[m])
					}
				}
			}
		})
	}
}

func TestEvaluateQuestionHandling(t *testing.T) {
	qs := []questions.Question{
		{QID: "a", Type: questions.Aggregate},
		{QID: "b", Type: questions.NamedEntity},
		{QID: "c", Type: questions.NamedEntity}, // only secondary gold: excluded
		{QID: "d", Type: questions.Contextual},  // no qrels at all: excluded
		{QID: "e", Type: "other"},               // no run entry: scores 0
	}
	qrels := ranking.Qrels{
		"a": {"a1": 2, "a2": 2},
		"b": {"b1": 2, "b2": 1},
		"c": {"c1": 1},
		"e": {"e1": 2},
		"z": {"z1": 2}, // not a question
	}
	run := ranking.Run{
		"a": hits("x", "a2"),
		"b": hits("b2", "b1"),
		"c": hits("c1"),
		"y": hits("y1"), // not a question
	}
	res, err := metrics.Evaluate(qs, qrels, run, []string{"recall@1", "mrr@5"})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("QIDs", res.QIDs, []string{"a", "b", "e"})
	check("Types", res.Types, []string{questions.Aggregate, questions.NamedEntity, "other"})
	check("Excluded", res.Excluded, []string{"c", "d"})
	check("NotInQuestions", res.NotInQuestions, []string{"z"})
	check("TypeOrder", res.TypeOrder, []string{questions.NamedEntity, questions.Aggregate, "other"})
	check("recall@1", res.Scores("recall@1"), []float64{0, 0, 0})
	check("mrr@5", res.Scores("mrr@5"), []float64{1.0 / 2, 1.0 / 2, 0}) // first gold at rank 2, 2, none
	check("mean mrr@5", res.Mean["mrr@5"], (1.0/2+1.0/2+0)/3)
	check("named_entity", res.ByType[questions.NamedEntity], metrics.TypeMeans{Questions: 1, Mean: map[string]float64{"recall@1": 0, "mrr@5": 0.5}})
	check("unknown metric", res.Scores("ndcg@5"), []float64(nil))
	check("TypeIndices", res.TypeIndices("other"), []int{2})

	t.Run("empty input", func(t *testing.T) {
		res, err := metrics.Evaluate(nil, nil, nil, []string{"ndcg@5"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.QIDs) != 0 || len(res.Excluded) != 0 || res.Mean["ndcg@5"] != 0 || len(res.ByType) != 0 {
			t.Errorf("got %+v", res)
		}
	})
	for name, c := range map[string]struct {
		qs      []questions.Question
		metrics []string
	}{
		"unknown metric":  {qs, []string{"map@5"}},
		"repeated metric": {qs, []string{"mrr@5", "mrr@5"}},
		"repeated qid":    {[]questions.Question{{QID: "a"}, {QID: "a"}}, []string{"mrr@5"}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := metrics.Evaluate(c.qs, qrels, run, c.metrics); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestMissingGold(t *testing.T) {
	qrels := ranking.Qrels{
		"q2": {"gone": 2, "here": 2, "zero": 0},
		"q1": {"half": 1, "here": 1},
	}
	corpus := map[string]bool{"here": true}
	got := metrics.MissingGold(qrels, corpus)
	want := []metrics.GoldRef{{"q1", "half", 1}, {"q2", "gone", 2}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := metrics.MissingGold(nil, corpus); len(got) != 0 {
		t.Errorf("empty qrels: got %v", got)
	}
}

// reference computes the spec §10 definitions directly, written
// independently of the package: sets for recall, a scan for the first gold
// rank, and an explicitly sorted ideal gain list.
func reference(family string, ranked []ranking.Hit, judged map[string]int, k int) float64 {
	n := k
	if len(ranked) < n {
		n = len(ranked)
	}
	var gold []string
	for id, rel := range judged {
		if rel == 2 {
			gold = append(gold, id)
		}
	}
	switch family {
	case "recall", "success", "recall_any", "recall_all":
		hit := 0
		for _, g := range gold {
			for _, h := range ranked[:n] {
				if h.ChunkID == g {
					hit++
					break
				}
			}
		}
		if family == "success" || family == "recall_any" {
			return float64(min(hit, 1))
		}
		if family == "recall_all" {
			if len(gold) > 0 && hit == len(gold) {
				return 1
			}
			return 0
		}
		return float64(hit) / float64(len(gold))
	case "ndcg_any":
		disc := func(pos int) float64 { return math.Max(1, math.Log2(float64(pos))) }
		dcg, idcg := 0.0, 0.0
		for i := 0; i < n; i++ {
			if judged[ranked[i].ChunkID] == 2 {
				dcg += 1 / disc(i+1)
			}
		}
		for i := 1; i <= len(gold) && i <= k; i++ {
			idcg += 1 / disc(i)
		}
		if idcg == 0 {
			return 0
		}
		return dcg / idcg
	case "mrr":
		for i := 0; i < n; i++ {
			if judged[ranked[i].ChunkID] == 2 {
				return 1 / float64(i+1)
			}
		}
		return 0
	case "ndcg":
		gain := func(rel int) float64 { return float64(int(1)<<rel - 1) }
		dcg := 0.0
		for i := 0; i < n; i++ {
			dcg += gain(judged[ranked[i].ChunkID]) / math.Log2(float64(i)+2)
		}
		var ideal []float64
		for _, rel := range judged {
			ideal = append(ideal, gain(rel))
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(ideal)))
		idcg := 0.0
		for i := 0; i < len(ideal) && i < k; i++ {
			idcg += ideal[i] / math.Log2(float64(i)+2)
		}
		if idcg == 0 {
			return 0
		}
		return dcg / idcg
	}
	panic("unknown family " + family)
}

func TestEvaluateAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const nq, pool = 400, 60
	var qs []questions.Question
	qrels, run := ranking.Qrels{}, ranking.Run{}
	for q := range nq {
		qid := fmt.Sprintf("q%03d", q)
		qs = append(qs, questions.Question{QID: qid, Type: questions.Types[rng.IntN(len(questions.Types))]})
		judged := map[string]int{}
		for range rng.IntN(12) {
			judged[fmt.Sprintf("c%02d", rng.IntN(pool))] = rng.IntN(3)
		}
		qrels[qid] = judged
		perm := rng.Perm(pool)[:rng.IntN(40)]
		for _, c := range perm {
			run[qid] = append(run[qid], ranking.Hit{ChunkID: fmt.Sprintf("c%02d", c)})
		}
	}
	var names []string
	for _, f := range metrics.Families() {
		for _, k := range []int{1, 3, 5, 10, 20, 200} {
			names = append(names, fmt.Sprintf("%s@%d", f, k))
		}
	}
	res, err := metrics.Evaluate(qs, qrels, run, names)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.QIDs) < nq/2 || len(res.Excluded) == 0 {
		t.Fatalf("generator gave %d evaluated, %d excluded; want both kinds", len(res.QIDs), len(res.Excluded))
	}
	for _, name := range names {
		m, _ := metrics.Parse(name)
		scores := res.Scores(name)
		sum := 0.0
		for i, qid := range res.QIDs {
			want := reference(m.Family, run[qid], qrels[qid], m.K)
			sum += want
			if math.Abs(scores[i]-want) > tol {
				t.Errorf("%s %s = %.17g, reference %.17g", name, qid, scores[i], want)
			}
		}
		if want := sum / float64(len(res.QIDs)); math.Abs(res.Mean[name]-want) > tol {
			t.Errorf("%s mean = %.17g, reference %.17g", name, res.Mean[name], want)
		}
	}
}

func ExampleEvaluate() {
	qs := []questions.Question{
		{QID: "q1", Question: "When is the dentist?", Type: questions.Contextual},
		{QID: "q2", Question: "Which train to Kyoto?", Type: questions.NamedEntity},
		{QID: "q3", Question: "What is this about?", Type: questions.Contextual},
	}
	qrels := ranking.Qrels{
		"q1": {"c1": 2, "c2": 1},
		"q2": {"c3": 2, "c4": 2},
		"q3": {"c5": 1},
	}
	run := ranking.Run{
		"q1": {{ChunkID: "c2", Score: 0.9}, {ChunkID: "c1", Score: 0.8}},
		"q2": {{ChunkID: "c4", Score: 3.1}},
	}
	res, err := metrics.Evaluate(qs, qrels, run, []string{"recall@5", "mrr@5"})
	if err != nil {
		panic(err)
	}
	fmt.Println("evaluated:", res.QIDs, "excluded:", res.Excluded)
	fmt.Println("recall@5 per question:", res.Scores("recall@5"))
	fmt.Printf("mean recall@5 %.2f, mrr@5 %.2f\n", res.Mean["recall@5"], res.Mean["mrr@5"])
	for _, typ := range res.TypeOrder {
		fmt.Printf("%s: %d question(s), mrr@5 %.2f\n", typ, res.ByType[typ].Questions, res.ByType[typ].Mean["mrr@5"])
	}
	// Output:
	// evaluated: [q1 q2] excluded: [q3]
	// recall@5 per question: [1 0.5]
	// mean recall@5 0.75, mrr@5 0.75
	// named_entity: 1 question(s), mrr@5 1.00
	// contextual: 1 question(s), mrr@5 0.50
}

func benchmarkEvaluate(b *testing.B, nq int) {
	rng := rand.New(rand.NewPCG(3, 5))
	var qs []questions.Question
	qrels, run := ranking.Qrels{}, ranking.Run{}
	for q := range nq {
		qid := fmt.Sprintf("q%05d", q)
		qs = append(qs, questions.Question{QID: qid, Type: questions.Types[q%len(questions.Types)]})
		qrels[qid] = map[string]int{fmt.Sprintf("c%d", rng.IntN(1000)): 2, fmt.Sprintf("c%d", rng.IntN(1000)): 1}
		hits := make([]ranking.Hit, 200)
		for i := range hits {
			hits[i] = ranking.Hit{ChunkID: fmt.Sprintf("c%d", rng.IntN(1000)), Score: float64(200 - i)}
		}
		run[qid] = hits
	}
	names := []string{"recall@5", "mrr@5", "ndcg@5", "success@5", "recall@200"}
	b.ResetTimer()
	for b.Loop() {
		if _, err := metrics.Evaluate(qs, qrels, run, names); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, nq := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("questions=%d", nq), func(b *testing.B) { benchmarkEvaluate(b, nq) })
	}
}

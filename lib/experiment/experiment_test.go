package experiment_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

// memoryVectors is an in-memory retrieval.VectorSource: every chunk of every
// representation gets the vector of its chunk, questions their own.
type memoryVectors struct {
	ids     []string
	chunk   map[string][]float32
	queries map[string][]float32
}

func (m memoryVectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	var data []float32
	for _, id := range m.ids {
		data = append(data, m.chunk[id]...)
	}
	return m.ids, 2, data, nil
}

func (m memoryVectors) QueryVector(model, q string) ([]float32, bool, error) {
	v, ok := m.queries[q]
	return v, ok, nil
}

// fixture is three chunks about different things and three questions, one of
// which has no primary gold.
func fixture() *experiment.Setup {
	texts := []string{"東京タワー 展望台 チケット", "数学 テスト 範囲 三角関数", "京都 新幹線 切符"}
	var chunks []chat.Chunk
	sums := map[string]string{}
	vs := memoryVectors{chunk: map[string][]float32{}, queries: map[string][]float32{}}
	for i, text := range texts {
		id := fmt.Sprintf("c%d", i)
		chunks = append(chunks, chat.Chunk{ID: id, Source: "s.json", Index: i, StartAt: fmt.Sprintf("2024-01-0%dT10:00:00", i+1), EndAt: "", RawText: text})
		sums[id] = text
		vs.ids = append(vs.ids, id)
		vs.chunk[id] = []float32{float32(i), 1}
	}
	qs := []questions.Question{
		{QID: "q1", Question: "数学のテスト範囲", Type: questions.Contextual},
		{QID: "q2", Question: "京都行きの新幹線", Type: questions.NamedEntity},
		{QID: "q3", Question: "展望台", Type: questions.Aggregate},
	}
	for i, q := range qs {
		vs.queries[q.Question] = []float32{float32(2 - i), 1}
	}
	qrels := ranking.Qrels{"q1": {"c1": 2}, "q2": {"c2": 2, "c1": 1}, "q3": {"c0": 1}}
	b := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: sums}, vs, retrieval.Options{EmbedModel: "m"})
	s := experiment.NewSetup(qs, qrels, b)
	s.Protocol.B = 200
	return s
}

func TestEvaluateExcludesQuestionsWithoutPrimaryGold(t *testing.T) {
	s := fixture()
	ev, err := s.Evaluate("raw_text_bm25")
	if err != nil {
		t.Fatal(err)
	}
	res := ev.Result
	if len(res.QIDs) != 2 || len(res.Excluded) != 1 || res.Excluded[0] != "q3" {
		t.Errorf("evaluated %v, excluded %v; want q1 q2 and q3 excluded", res.QIDs, res.Excluded)
	}
	if got := res.Mean["recall@5"]; got != 1 { // both questions find their one rel-2 chunk by exact terms
		t.Errorf("recall@5 = %v, want 1", got)
	}
	if iv := ev.CI["recall@5"]; iv.Lo != 1 || iv.Hi != 1 {
		t.Errorf("CI of a constant vector = [%v, %v], want [1, 1]", iv.Lo, iv.Hi)
	}
	if _, ok := ev.Run["q3"]; !ok {
		t.Error("the run lacks excluded q3; runs hold every question")
	}
}

func TestPairedDifferenceOfAMethodWithItselfIsZero(t *testing.T) {
	s := fixture()
	a, err := s.Evaluate("summary_bm25")
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.PairedDifference(a, a, "ndcg@5")
	if err != nil {
		t.Fatal(err)
	}
	if d.Mean != 0 || d.Lo != 0 || d.Hi != 0 {
		t.Errorf("a − a = %v [%v, %v], want 0 [0, 0]", d.Mean, d.Lo, d.Hi)
	}
}

func TestSweepCoversEveryConfigurationAndSelectsTheFirstMaximum(t *testing.T) {
	s := fixture()
	w, err := s.Sweep(experiment.PaperProtocol().Pairings, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Configs) != 6*21 {
		t.Fatalf("%d configurations, want 126", len(w.Configs))
	}
	best := w.Configs[0].Result.Mean["recall@5"]
	first := 0
	for i, c := range w.Configs {
		if v := c.Result.Mean["recall@5"]; v > best {
			best, first = v, i
		}
	}
	if w.Selected != first {
		t.Errorf("selected #%d (%s), want the first maximum #%d (%s)", w.Selected, w.Configs[w.Selected].Name, first, w.Configs[first].Name)
	}
	if got, want := w.Configs[21].Name, "hybrid:summary_bm25+embedding_text_vector@0.00"; got != want {
		t.Errorf("configuration 21 = %s, want %s (pairing order, then β)", got, want)
	}
	cfg := w.SelectedConfig()
	fused, err := s.Score(cfg.Name, w.FusedRun(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if fused.Result.Mean["recall@5"] != best {
		t.Errorf("rebuilt run scores %v, want %v", fused.Result.Mean["recall@5"], best)
	}
}

func TestLoadQuestionSetRejectsAQrelsQIDThatIsNoQuestion(t *testing.T) {
	dir := t.TempDir()
	qpath, rpath := filepath.Join(dir, "q.jsonl"), filepath.Join(dir, "qrels.txt")
	if err := os.WriteFile(qpath, []byte(`{"qid": "q1", "question": "a", "type": "contextual"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rpath, []byte("q1 0 c1 2\nq9 0 c2 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := experiment.LoadQuestionSet(qpath, rpath)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != rpath || ie.Line != 2 {
		t.Fatalf("err = %v, want an input error at %s:2", err, rpath)
	}
}

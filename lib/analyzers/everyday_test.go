package analyzers_test

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixtureRuns are two small runs: one folder with answerable, no-answer
// and other-chat questions, one with answerable questions only.
func fixtureRuns() []*analyzers.EverydayRun {
	a := &analyzers.EverydayRun{Corpus: "small", Retriever: "raw_text_bm25", Outcomes: []analyzers.Outcome{
		{QID: "q1", Kind: analyzers.Answerable, Confidence: 0.9, Shown: true, Quoted: true, Judged: true, Recall5: 1, Success1: 1},
		{QID: "q2", Kind: analyzers.Answerable, Confidence: 0.3, Shown: true, Judged: true, Recall5: 1},
		{QID: "q3", Kind: analyzers.Answerable, Confidence: 0.6, Quoted: true},
		{QID: "q4", Kind: analyzers.Answerable, Confidence: 0.5, Shown: true, Quoted: true, Judged: true, Recall5: 0.5, Success1: 1},
		{QID: "u1", Kind: analyzers.NoAnswer, Confidence: 0.2},
		{QID: "q1", Kind: analyzers.OtherChats, Confidence: 0.7},
	}}
	b := &analyzers.EverydayRun{Corpus: "tiny", Retriever: "embedding_text_bm25", Outcomes: []analyzers.Outcome{
		{QID: "t1", Kind: analyzers.Answerable, Confidence: 1, Shown: true, Quoted: true},
	}}
	return []*analyzers.EverydayRun{a, b}
}

// TestEverydayConfidences: one set per kind present, in the order
// answerable, no-answer, other chats, with the confidences in run order.
func TestEverydayConfidences(t *testing.T) {
	runs := fixtureRuns()
	got := runs[0].Confidences()
	want := []analyzers.Confidences{
		{Corpus: "small", Kind: analyzers.Answerable, Values: []float64{0.9, 0.3, 0.6, 0.5}},
		{Corpus: "small", Kind: analyzers.NoAnswer, Values: []float64{0.2}},
		{Corpus: "small", Kind: analyzers.OtherChats, Values: []float64{0.7}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Confidences() = %+v, want %+v", got, want)
	}
	if got := runs[1].Confidences(); len(got) != 1 || got[0].Kind != analyzers.Answerable {
		t.Errorf("answerable questions only: %+v, want one set", got)
	}
}

func TestEverydayRates(t *testing.T) {
	r := fixtureRuns()[0].EverydayRates(0.49)
	want := [][]float64{
		{1, 1, 0, 1}, // shown
		{0, 1, 0, 0}, // flagged: 0.3 < 0.49
		{1, 0},       // unanswerable flagged: 0.2 yes, 0.7 no
		{1, 0, 1, 1}, // quoted
		{1, 1, 0.5},  // Recall@5 of the judged q1, q2, q4
		{1, 0, 1},    // Success@1
	}
	for i := range want {
		if len(r[i]) != len(want[i]) {
			t.Fatalf("%s: %v, want %v", analyzers.EverydayColumns[i], r[i], want[i])
		}
		for j := range want[i] {
			if math.Abs(r[i][j]-want[i][j]) > 0 {
				t.Errorf("%s: %v, want %v", analyzers.EverydayColumns[i], r[i], want[i])
			}
		}
	}
}

// TestEverydayReportGolden holds the table's layout to
// testdata/everyday_report.md (-update rewrites it).
func TestEverydayReportGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := analyzers.EverydayReport(fixtureRuns(), 0.49, 200, 7).WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "everyday_report.md")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("report differs from %s (go test -update rewrites it):\n%s", path, buf.String())
	}
}

func TestChooseThresholdWithin(t *testing.T) {
	sets := []analyzers.Confidences{
		{Corpus: "a", Kind: analyzers.Answerable, Values: []float64{0.1, 0.5, 0.6, 0.7, 0.8, 0.9, 0.9}},
		{Corpus: "b", Kind: analyzers.Answerable, Values: []float64{0.3, 0.4, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9}},
		{Corpus: "a", Kind: analyzers.NoAnswer, Values: []float64{0.05, 0.2, 0.35, 0.95}},
	}
	// flagged means below the threshold. a flags 1 of 7 (14%) up to 0.50
	// and 2 of 7 from 0.51; b flags 1 of 8 (12.5%) up to 0.40 and 2 of 8
	// from 0.41: 0.40, where only 0.95 of the unanswerable passes
	th := analyzers.ChooseThresholdWithin(sets, analyzers.MaxFalseAbstain)
	if math.Abs(th.At-0.40) > 1e-12 || math.Abs(th.FalseAnswer-1.0/4) > 1e-12 || math.Abs(th.FalseAbstain-2.0/15) > 1e-12 {
		t.Errorf("threshold %+v; want 0.40 with 2 of 15 answerable flagged and 1 of 4 unanswerable not", th)
	}
}

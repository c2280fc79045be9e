package workbench_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/workbench"
)

func yes(b bool) *bool        { return &b }
func secs(s float64) *float64 { return &s }

// TestPoolReportPerQuestion: each question's line counts its distinct
// chunks, the rows of each retriever (its top Depth) and the chunks of each
// evidence item, checked against the stored pool and the evidence file.
func TestPoolReportPerQuestion(t *testing.T) {
	st, rep := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	items := map[string]int{"w1": 1, "w2": 2, "w3": 1} // testdata/workbench/evidence.jsonl
	if len(rep.PerQuestion) != 3 {
		t.Fatalf("%d questions reported, want 3", len(rep.PerQuestion))
	}
	for _, q := range rep.PerQuestion {
		v, err := b.View("", q.QID, true)
		if err != nil {
			t.Fatal(err)
		}
		evidenceRows, retrieverRows := 0, 0
		for _, r := range v.Rows {
			for _, o := range r.Origins {
				switch o.Kind {
				case workbench.OriginEvidence:
					evidenceRows++
				case workbench.OriginRetriever:
					retrieverRows++
				}
			}
		}
		sum := 0
		for _, n := range q.ByEvidence {
			sum += n
		}
		if q.Rows != len(v.Rows) || q.ByRetriever[workbenchtest.Retriever] != retrieverRows || retrieverRows == 0 || retrieverRows > workbenchtest.Depth || len(q.ByEvidence) != items[q.QID] || sum != evidenceRows {
			t.Errorf("%s: %+v; want %d rows, %d (1…%d) from the retriever, %d evidence items with %d rows", q.QID, q, len(v.Rows), retrieverRows, workbenchtest.Depth, items[q.QID], evidenceRows)
		}
	}
	if len(rep.NoRetrieverRows) != 0 {
		t.Errorf("questions without retriever rows: %v", rep.NoRetrieverRows)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	if want := fmt.Sprintf("question w2: %d rows, %s %d, evidence items #0: %d #1: %d\n", rep.PerQuestion[1].Rows, workbenchtest.Retriever,
		rep.PerQuestion[1].ByRetriever[workbenchtest.Retriever], rep.PerQuestion[1].ByEvidence[0], rep.PerQuestion[1].ByEvidence[1]); !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
}

// TestJudgmentsCarryBlindAndSeconds: blind/revealed and seconds round-trip
// through the judgments JSONL; an old-format file (without them) imports,
// its rows unrecorded; bad values are input errors.
func TestJudgmentsCarryBlindAndSeconds(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	v, _ := b.View("", "w1", false)
	c0, c1 := v.Rows[0].ChunkID, v.Rows[1].ChunkID
	if err := b.LabelAs("A", "w1", c0, rel(2), workbench.Judging{Blind: yes(true), Seconds: secs(4.5)}); err != nil {
		t.Fatal(err)
	}
	if err := b.LabelAs("A", "w1", c1, rel(0), workbench.Judging{Blind: yes(false), Seconds: secs(1.25)}); err != nil {
		t.Fatal(err)
	}
	js, _ := b.Judgments("A")
	var out bytes.Buffer
	workbench.WriteJudgments(&out, js)
	for _, want := range []string{`"blind":true,"seconds":4.5}`, `"blind":false,"seconds":1.25}`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("judgments JSONL lacks %s:\n%s", want, out.String())
		}
	}
	in := strings.ReplaceAll(out.String(), `"annotator":"A"`, `"annotator":"B"`)
	if _, err := b.ImportJudgments("b.jsonl", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	jb, _ := b.Judgments("B")
	for i, j := range jb {
		a := js[i]
		if *j.Rel != *a.Rel || *j.Blind != *a.Blind || *j.Seconds != *a.Seconds {
			t.Errorf("imported %+v, want the fields of %+v", j, a)
		}
	}
	old := `{"qid":"w1","chunk_id":"` + c0 + `","rel":1,"annotator":"C"}` + "\n"
	if rep, err := b.ImportJudgments("old.jsonl", strings.NewReader(old)); err != nil || rep.Rows != 1 {
		t.Fatalf("old-format import: %+v, %v", rep, err)
	}
	if jc, _ := b.Judgments("C"); len(jc) != 1 || jc[0].Blind != nil || jc[0].Seconds != nil {
		t.Errorf("old-format row %+v, want blind and seconds unrecorded", jc)
	}
	for line, want := range map[string]string{
		`{"qid":"w1","chunk_id":"` + c0 + `","rel":1,"annotator":"D","blind":"yes"}`: `"blind" true or false`,
		`{"qid":"w1","chunk_id":"` + c0 + `","rel":1,"annotator":"D","seconds":-1}`:  `"seconds" a number`,
	} {
		if _, err := b.ImportJudgments("bad.jsonl", strings.NewReader(line+"\n")); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1") || !strings.Contains(err.Error(), want) {
			t.Errorf("import %s: %v, want bad.jsonl:1 expecting %s", line, err, want)
		}
	}
	if err := b.LabelAs("A", "w1", c1, rel(1), workbench.Judging{Seconds: secs(math.NaN())}); err == nil {
		t.Error("NaN seconds stored")
	}
	ex, _ := b.Export("A")
	var report bytes.Buffer
	ex.WriteReport(&report)
	// A's two labels: one blind, one revealed; 4.5 + 1.25 s, median (1.25 + 4.5)/2.
	if want := fmt.Sprintf("labels: 1 blind, 1 with sources revealed, 0 unrecorded; 2 timed: %.0f s in all, median %.1f s a row", 4.5+1.25, (4.5+1.25)/2); !strings.Contains(report.String(), want) {
		t.Errorf("export report lacks %q:\n%s", want, report.String())
	}
}

// TestUndoRedoWalksTheStoredHistory: labels, notes and decisions are events;
// Undo and Redo walk them from the database (a new Bench over the same store
// sees the same history), and a change after an undo drops the redo chain.
func TestUndoRedoWalksTheStoredHistory(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	v, _ := b.View("", "w1", false)
	c0 := v.Rows[0].ChunkID
	keep := false
	steps := []func() error{
		func() error { return b.Label("A", "w1", c0, rel(1)) },
		func() error { return b.Label("A", "w1", c0, rel(2)) },
		func() error { return b.Note("A", "w1", c0, "部") },
		func() error { return b.Note("A", "w1", c0, "部長") }, // the same note edited: one event
		func() error { return b.Decide("A", "w1", &keep) },
		func() error { return b.Label("B", "w1", c0, rel(0)) }, // another annotator's history
	}
	for _, s := range steps {
		if err := s(); err != nil {
			t.Fatal(err)
		}
	}
	state := func(bench *workbench.Bench) string {
		js, _ := bench.Judgments("A")
		d, _ := bench.Decisions("A")
		r, n := "-", ""
		if len(js) == 1 {
			n = js[0].Note
			if js[0].Rel != nil {
				r = fmt.Sprint(*js[0].Rel)
			}
		}
		dec, ok := d["w1"]
		return fmt.Sprintf("%s|%s|%v", r, n, map[bool]string{true: fmt.Sprint(dec), false: "none"}[ok])
	}
	h, _ := b.History("A", 0)
	if len(h) != 4 || h[0].Kind != "decision" || h[1].Kind != "note" || h[1].After != `"部長"` {
		t.Fatalf("history %+v, want decision, note 部長, label, label", h)
	}
	again := workbench.Open(st) // as after a reload or a restart
	want := []string{"2|部長|none", "2||none", "1||none", "-||none"}
	for i, w := range want {
		if _, ok, err := again.Undo("A"); !ok || err != nil {
			t.Fatalf("undo %d: %v %v", i, ok, err)
		}
		if got := state(again); got != w {
			t.Errorf("after undo %d: %s, want %s", i+1, got, w)
		}
	}
	if _, ok, _ := again.Undo("A"); ok {
		t.Error("undo past the first event")
	}
	if lb, _ := again.Labels("B"); lb["w1"][c0] != 0 {
		t.Errorf("B's label changed by A's undo: %v", lb)
	}
	again.Redo("A")
	again.Redo("A")
	if got := state(again); got != "2||none" {
		t.Errorf("after two redos: %s, want 2||none", got)
	}
	if err := again.Label("A", "w1", c0, rel(0)); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := again.Redo("A"); ok {
		t.Error("redo after a new change")
	}
	h, _ = again.History("A", 0)
	states := map[string]int{}
	for _, e := range h {
		states[e.State]++
	}
	if states[workbench.StateDone] != 3 || states[workbench.StateDropped] != 2 {
		t.Errorf("history states %v, want 3 done and the 2 dropped redo events", states)
	}
}

// TestAdjudicationWritesConsensus: the rows two annotators label differently
// are listed, disagreements before the rows one of them labelled; an
// adjudication sets the chosen label and leaves κ of the two as it was; the
// consensus export holds the agreed row and the adjudicated ones.
func TestAdjudicationWritesConsensus(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	v, _ := b.View("", "w2", false)
	c := []string{v.Rows[0].ChunkID, v.Rows[1].ChunkID, v.Rows[2].ChunkID}
	for i, r := range []int{2, 0, 1} {
		b.Label("A", "w2", c[i], rel(r))
	}
	for i, r := range []int{2, 1} {
		b.Label("B", "w2", c[i], rel(r))
	}
	before, _ := b.Agreement("A", "B")
	rows, err := b.Adjudication("A", "B")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].ChunkID != c[1] || rows[0].Single() || rows[1].ChunkID != c[2] || !rows[1].Single() || rows[0].Consensus != nil {
		t.Fatalf("adjudication rows %+v, want the disagreement on %s, then the single row %s, without consensus", rows, c[1], c[2])
	}
	for _, r := range rows {
		if err := b.Adjudicate("A", "B", r.QID, r.ChunkID, rel(1)); err != nil {
			t.Fatal(err)
		}
	}
	g, err := b.Consensus("A", "B", false)
	if want := map[string]int{c[0]: 2, c[1]: 1, c[2]: 1}; err != nil || fmt.Sprint(g.Labels["w2"]) != fmt.Sprint(want) || g.Agreed != 1 || g.Adjudicated != 2 {
		t.Errorf("consensus %v (%d agreed, %d adjudicated), %v; want %v, 1 and 2", g.Labels["w2"], g.Agreed, g.Adjudicated, err, want)
	}
	after, _ := b.Agreement("A", "B")
	if before.Kappa != after.Kappa && !(math.IsNaN(before.Kappa) && math.IsNaN(after.Kappa)) {
		t.Errorf("κ %v → %v after adjudication", before.Kappa, after.Kappa)
	}
	if _, err := b.Adjudication("A", "A"); err == nil {
		t.Error("adjudication of A with A accepted")
	}
	if _, err := b.Adjudication("A", "Bx"); err == nil || !strings.Contains(err.Error(), `"Bx"`) {
		t.Errorf("adjudication of A with Bx, who judged nothing: %v, want an error naming Bx", err)
	}
	if err := b.Adjudicate("A", "Bx", "w2", c[1], rel(2)); err == nil {
		t.Error("adjudicating A with Bx, who judged nothing, wrote consensus")
	}
	ex, err := b.ExportConsensus("A", "B", false)
	if err != nil || len(ex.Qrels["w2"]) != 3 {
		t.Errorf("consensus export %v, %v", ex.Qrels, err)
	}
	if _, err := b.Export(workbench.Consensus); err == nil {
		t.Error("Export(consensus) without the two annotators accepted")
	}
}

// TestConsensusIsComputedNow: the consensus follows the two annotators'
// labels as they stand at each call, never a snapshot.
func TestConsensusIsComputedNow(t *testing.T) {
	setup := func(t *testing.T) (*workbench.Bench, []string) {
		st, _ := workbenchtest.Pooled(t, t.TempDir())
		b := workbench.Open(st)
		v, _ := b.View("", "w2", false)
		return b, []string{v.Rows[0].ChunkID, v.Rows[1].ChunkID, v.Rows[2].ChunkID}
	}
	labels := func(b *workbench.Bench, who string, c []string, rels ...int) {
		for i, r := range rels {
			if err := b.Label(who, "w2", c[i], rel(r)); err != nil {
				t.Fatal(err)
			}
		}
	}
	consensus := func(t *testing.T, b *workbench.Bench) (workbench.Export, workbench.ConsensusGold) {
		t.Helper()
		ex, err := b.ExportConsensus("A", "B", false)
		if err != nil {
			t.Fatal(err)
		}
		return ex, *ex.Of
	}
	t.Run("agreeing on every row", func(t *testing.T) {
		b, c := setup(t)
		labels(b, "A", c, 2, 0, 1)
		labels(b, "B", c, 2, 0, 1)
		ex, g := consensus(t, b)
		if want := map[string]int{c[0]: 2, c[1]: 0, c[2]: 1}; fmt.Sprint(ex.Qrels["w2"]) != fmt.Sprint(want) || g.Agreed != len(want) || len(g.Disagreements)+len(g.Singles) != 0 {
			t.Errorf("qrels %v, %d agreed; want %v, all %d agreed, nothing to adjudicate", ex.Qrels["w2"], g.Agreed, want, len(want))
		}
	})
	t.Run("agreement after an adjudication", func(t *testing.T) {
		b, c := setup(t)
		labels(b, "A", c, 2, 0)
		labels(b, "B", c, 2, 1)
		if err := b.Adjudicate("A", "B", "w2", c[1], rel(1)); err != nil {
			t.Fatal(err)
		}
		labels(b, "A", c[2:], 1)
		labels(b, "B", c[2:], 1)
		ex, g := consensus(t, b)
		if want := map[string]int{c[0]: 2, c[1]: 1, c[2]: 1}; fmt.Sprint(ex.Qrels["w2"]) != fmt.Sprint(want) || g.Agreed != 2 || g.Adjudicated != 1 {
			t.Errorf("qrels %v (%d agreed, %d adjudicated), want %v (2 and 1)", ex.Qrels["w2"], g.Agreed, g.Adjudicated, want)
		}
		labels(b, "A", c[1:], 1)
		ex, g = consensus(t, b)
		if len(g.Obsolete) != 1 || g.Obsolete[0].ChunkID != c[1] || g.Obsolete[0].Reason != workbench.ObsoleteAgreed || g.Agreed != 3 || ex.Qrels["w2"][c[1]] != 1 {
			t.Errorf("A now agrees with B on %s: obsolete %+v, %d agreed; want it reported obsolete and 3 agreed", c[1], g.Obsolete, g.Agreed)
		}
	})
	t.Run("both change an agreed row 0 → 1", func(t *testing.T) {
		b, c := setup(t)
		labels(b, "A", c, 2, 0)
		labels(b, "B", c, 2, 0)
		if ex, _ := consensus(t, b); ex.Qrels["w2"][c[1]] != 0 {
			t.Fatalf("before: %v", ex.Qrels["w2"])
		}
		labels(b, "A", c[1:], 1)
		labels(b, "B", c[1:], 1)
		if ex, _ := consensus(t, b); ex.Qrels["w2"][c[1]] != 1 {
			t.Errorf("after both changed %s to 1: %v", c[1], ex.Qrels["w2"])
		}
	})
	t.Run("a label changed after its adjudication", func(t *testing.T) {
		b, c := setup(t)
		labels(b, "A", c, 2, 0)
		labels(b, "B", c, 2, 2)
		if err := b.Adjudicate("A", "B", "w2", c[1], rel(2)); err != nil {
			t.Fatal(err)
		}
		labels(b, "A", c[1:], 1)
		ex, g := consensus(t, b)
		if _, in := ex.Qrels["w2"][c[1]]; in || len(g.Obsolete) != 1 || g.Obsolete[0].Reason != workbench.ObsoleteChanged || g.Disagreements[0].Obsolete != workbench.ObsoleteChanged {
			t.Errorf("A changed 0 → 1 after the adjudication: qrels %v, obsolete %+v; want the row out and reported", ex.Qrels["w2"], g.Obsolete)
		}
		var report strings.Builder
		ex.WriteReport(&report)
		if !strings.Contains(report.String(), "obsolete adjudication w2 "+c[1]+" (chose 2): "+workbench.ObsoleteChanged) {
			t.Errorf("report lacks the obsolete adjudication:\n%s", report.String())
		}
	})
	t.Run("rows one annotator labelled, taken when asked", func(t *testing.T) {
		b, c := setup(t)
		labels(b, "A", c, 2, 0, 1)
		labels(b, "B", c, 2)
		g, err := b.Consensus("A", "B", true)
		if want := map[string]int{c[0]: 2, c[1]: 0, c[2]: 1}; err != nil || fmt.Sprint(g.Labels["w2"]) != fmt.Sprint(want) || g.SinglesTaken != 2 || len(g.Singles) != 2 {
			t.Errorf("with singles: %v (%d taken of %d), %v; want %v", g.Labels["w2"], g.SinglesTaken, len(g.Singles), err, want)
		}
		if g, _ := b.Consensus("A", "B", false); len(g.Labels["w2"]) != 1 {
			t.Errorf("without singles: %v, want the agreed row only", g.Labels["w2"])
		}
	})
}

// TestImportHoldsAnnotatorsToTheNameRule: an import naming the consensus or
// a name with a control character is refused at its line, and nothing is
// stored.
func TestImportHoldsAnnotatorsToTheNameRule(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	v, _ := b.View("", "w1", false)
	for _, name := range []string{workbench.Consensus, "a\u0007b", "a\u2028b", strings.Repeat("x", workbench.MaxAnnotatorBytes+1)} {
		line := fmt.Sprintf(`{"qid":"w1","chunk_id":%q,"rel":1,"annotator":%q}`, v.Rows[0].ChunkID, name)
		_, err := b.ImportJudgments("j.jsonl", strings.NewReader(`{"qid":"w1","chunk_id":"`+v.Rows[0].ChunkID+`","rel":1,"annotator":"A"}`+"\n"+line+"\n"))
		if err == nil || !strings.Contains(err.Error(), "j.jsonl:2") {
			t.Errorf("import as %q: %v, want an error at j.jsonl:2", name, err)
		}
	}
	if all, _ := b.Annotators(); len(all) != 0 {
		t.Errorf("annotators stored: %q", all)
	}
}

// TestExportSplitsBlindAndRevealedTime: labels that record their blind
// seconds report, in all and per relevance grade, the time read blind
// (Σ blind_seconds) and with the sources revealed (Σ (seconds −
// blind_seconds)); blind seconds above seconds are refused.
func TestExportSplitsBlindAndRevealedTime(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	v, _ := b.View("", "w2", false)
	rows := []struct {
		rel           int
		seconds, blnd float64
	}{{2, 6, 4}, {2, 3, 3}, {0, 2.5, 0.5}}
	for i, r := range rows {
		if err := b.LabelAs("A", "w2", v.Rows[i].ChunkID, rel(r.rel), workbench.Judging{Blind: yes(false), Seconds: secs(r.seconds), BlindSeconds: secs(r.blnd)}); err != nil {
			t.Fatal(err)
		}
	}
	ex, err := b.Export("A")
	if err != nil {
		t.Fatal(err)
	}
	h := ex.How
	if h.Split != 3 || h.BlindSeconds != 4+3+0.5 || h.RevealedSeconds != (6-4)+(3-3)+(2.5-0.5) ||
		h.ByRel[2] != (workbench.SplitTime{Labels: 2, BlindSeconds: 4 + 3, RevealedSeconds: 6 - 4 + 3 - 3}) ||
		h.ByRel[0] != (workbench.SplitTime{Labels: 1, BlindSeconds: 0.5, RevealedSeconds: 2.5 - 0.5}) {
		t.Errorf("how judged %+v", h)
	}
	var report bytes.Buffer
	ex.WriteReport(&report)
	if want := fmt.Sprintf("label 2: 2 labels, %.1f s blind and %.1f s revealed a label", (4+3)/2.0, (6-4+3-3)/2.0); !strings.Contains(report.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, report.String())
	}
	if err := b.LabelAs("A", "w2", v.Rows[0].ChunkID, rel(1), workbench.Judging{Seconds: secs(2), BlindSeconds: secs(3)}); err == nil {
		t.Error("3 blind seconds of 2 stored")
	}
}

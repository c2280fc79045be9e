package trec_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/trec"
)

func TestQrelsRoundTrip(t *testing.T) {
	in := "q2 0 c9 1\n\nq1 0 c2 2\nq1 0 c1 0\nq1 0 c2 1\n"
	f, err := trec.ReadQrelsWith("qrels.txt", strings.NewReader(in), trec.QrelsOptions{AllowConflicts: true})
	if err != nil {
		t.Fatal(err)
	}
	q := f.Qrels
	if q["q1"]["c2"] != 1 {
		t.Errorf("repeated pair: rel %d, want the last line's 1", q["q1"]["c2"])
	}
	var b strings.Builder
	if err := trec.WriteQrels(&b, q); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "q1 0 c1 0\nq1 0 c2 1\nq2 0 c9 1\n"; got != want {
		t.Errorf("WriteQrels:\n%s\nwant:\n%s", got, want)
	}
}

// TestQrelsConflicts: a pair judged twice alike is one judgement; judged
// differently it is an error at the later line naming the earlier one, or,
// allowed, the later row with a warning saying the same.
func TestQrelsConflicts(t *testing.T) {
	same := "q1 0 c1 2\nq2 0 c1 1\nq1 0 c1 2\n"
	if q, err := trec.ReadQrels("qrels.txt", strings.NewReader(same)); err != nil || q["q1"]["c1"] != 2 || len(q["q1"]) != 1 {
		t.Errorf("a row repeated alike: %v, %v", q, err)
	}
	conflict := "q1 0 c1 2\nq2 0 c1 1\n\nq1 0 c1 0\n"
	const want = "qrels.txt:4: expected one relevance per (qid, chunk_id); q1 c1 is judged 2 on line 1 and 0 here"
	_, err := trec.ReadQrels("qrels.txt", strings.NewReader(conflict))
	var ie *trec.InputError
	if !errors.As(err, &ie) || ie.Line != 4 || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "--allow-duplicate-qrels") {
		t.Errorf("conflict: %v, want %q and the flag that allows it", err, want)
	}
	f, err := trec.ReadQrelsWith("qrels.txt", strings.NewReader(conflict), trec.QrelsOptions{AllowConflicts: true})
	if err != nil || f.Qrels["q1"]["c1"] != 0 || len(f.Warnings) != 1 || f.Warnings[0].Error() != want+"; kept the last row" {
		t.Errorf("allowed conflict: %v, %v, warnings %v", f.Qrels, err, f.Warnings)
	}
	if f.FirstLine["q1"] != 1 || f.FirstLine["q2"] != 2 {
		t.Errorf("FirstLine %v, want q1 1, q2 2", f.FirstLine)
	}
}

func TestQrelsErrorsNameFileAndLine(t *testing.T) {
	for name, in := range map[string]string{
		"three fields":  "q1 0 c1 2\nq1 0 c2\n",
		"relevance 3":   "q1 0 c1 2\nq1 0 c2 3\n",
		"relevance abc": "q1 0 c1 2\nq1 0 c2 x\n",
		"invalid UTF-8": "q1 0 c1 2\nq1 0 \xff 1\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := trec.ReadQrels("qrels.txt", strings.NewReader(in))
			var ie *trec.InputError
			if !errors.As(err, &ie) || ie.File != "qrels.txt" || ie.Line != 2 {
				t.Fatalf("err = %v, want an InputError at qrels.txt:2", err)
			}
		})
	}
}

func TestRunRoundTripKeepsOrderAndFullPrecision(t *testing.T) {
	run := ranking.Run{"q1": {{ChunkID: "b", Score: math.Nextafter(0.3, 1)}, {ChunkID: "a", Score: -1e-300}}, "q2": {{ChunkID: "c", Score: 3}}}
	var b strings.Builder
	if err := trec.WriteRun(&b, []string{"q2", "q1"}, run, "hybrid:x+y@0.45"); err != nil {
		t.Fatal(err)
	}
	want := "q2 Q0 c 1 3 hybrid:x+y@0.45\nq1 Q0 b 1 0.30000000000000004 hybrid:x+y@0.45\nq1 Q0 a 2 -1e-300 hybrid:x+y@0.45\n"
	if b.String() != want {
		t.Errorf("WriteRun:\n%s\nwant:\n%s", b.String(), want)
	}
	back, err := trec.ReadRun("x.run", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back["q1"]) != 2 || back["q1"][0] != run["q1"][0] || back["q1"][1] != run["q1"][1] {
		t.Errorf("ReadRun q1 = %v, want %v", back["q1"], run["q1"])
	}
}

func TestReadRunOrdersByRankAndRejectsBadLines(t *testing.T) {
	back, err := trec.ReadRun("x.run", strings.NewReader("q1 Q0 b 2 1 t\nq1 Q0 a 1 2 t\n"))
	if err != nil || back["q1"][0].ChunkID != "a" {
		t.Errorf("ReadRun = %v, %v; want a first (rank 1)", back, err)
	}
	_, err = trec.ReadRun("x.run", strings.NewReader("q1 Q0 a 1 2 t\nq1 Q0 b 0 1 t\n"))
	var ie *trec.InputError
	if !errors.As(err, &ie) || ie.Line != 2 {
		t.Errorf("rank 0: err = %v, want an InputError on line 2", err)
	}
}

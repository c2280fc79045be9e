package workbench_test

import (
	"errors"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/trec"
	"github.com/linemem/linemem/lib/workbench"
)

func rel(r int) *int { return &r }

// TestPoolIsTheUnionOfEvidenceAndDepthK checks every question's pool against
// an independent union: gold.Resolve's chunks and the retriever's top Depth.
func TestPoolIsTheUnionOfEvidenceAndDepthK(t *testing.T) {
	st, rep := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	chunks, _ := st.Chunks()
	ev, _ := gold.ReadEvidenceFile(filepath.Join(workbenchtest.Dir(), "evidence.jsonl"))
	var msgs = mustMessages(t, st)
	resolved, _ := gold.Resolve(ev, msgs, chunks)
	r, err := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks}, st, retrieval.Options{Tokenizer: workbenchtest.Tokenizer}).Build(workbenchtest.Retriever)
	if err != nil {
		t.Fatal(err)
	}
	qs, _ := b.Questions()
	total, fromEvidence := 0, 0
	for _, q := range qs {
		want := map[string]bool{}
		for cid := range resolved[q.QID] {
			want[cid] = true
			fromEvidence++
		}
		hits, _ := r.Search(q.Question, workbenchtest.Depth)
		for _, h := range hits {
			want[h.ChunkID] = true
		}
		v, err := b.View("ann", q.QID, true)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, row := range v.Rows {
			got[row.ChunkID] = true
			for _, o := range row.Origins {
				switch o.Kind {
				case workbench.OriginEvidence:
					if _, ok := resolved[q.QID][row.ChunkID]; !ok || o.Match != gold.MatchExact && o.Match != gold.MatchExcerpt || o.Score <= 0 || o.Score > 1 {
						t.Errorf("%s %s: evidence origin %+v for a chunk the evidence does not resolve to", q.QID, row.ChunkID, o)
					}
				case workbench.OriginRetriever:
					if o.Detail != workbenchtest.Retriever || o.Rank < 1 || o.Rank > workbenchtest.Depth || hits[o.Rank-1].ChunkID != row.ChunkID {
						t.Errorf("%s %s: retriever origin %+v does not match the ranking", q.QID, row.ChunkID, o)
					}
				default:
					t.Errorf("%s %s: unexpected origin %+v", q.QID, row.ChunkID, o)
				}
			}
			if len(row.Origins) == 0 {
				t.Errorf("%s %s: a revealed row without origin", q.QID, row.ChunkID)
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: pool %v, want %v", q.QID, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
		total += len(want)
	}
	if rep.Rows != total || rep.FromEvidence != fromEvidence || rep.Questions != 3 {
		t.Errorf("report %d rows (%d from evidence) over %d questions, want %d (%d) over 3", rep.Rows, rep.FromEvidence, rep.Questions, total, fromEvidence)
	}
}

func TestBlindViewHidesOriginsAndOrdersByTime(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	blind, err := b.View("ann", "w2", false)
	if err != nil {
		t.Fatal(err)
	}
	open, _ := b.View("ann", "w2", true)
	if len(blind.Rows) != len(open.Rows) || len(blind.Rows) == 0 {
		t.Fatalf("blind %d rows, revealed %d", len(blind.Rows), len(open.Rows))
	}
	marked := 0
	for i, row := range blind.Rows {
		if len(row.Origins) != 0 || len(row.Evidence) != 0 {
			t.Errorf("blind row %s shows origins %v, evidence %v", row.ChunkID, row.Origins, row.Evidence)
		}
		if row.ChunkID != open.Rows[i].ChunkID {
			t.Errorf("row %d: blind %s, revealed %s: the order must not depend on revealing", i, row.ChunkID, open.Rows[i].ChunkID)
		}
		if i > 0 && row.StartAt < blind.Rows[i-1].StartAt {
			t.Errorf("row %d starts %s before row %d (%s)", i, row.StartAt, i-1, blind.Rows[i-1].StartAt)
		}
		marked += len(open.Rows[i].Evidence)
	}
	if marked != 2 || len(blind.Evidence) != 2 {
		t.Errorf("revealed %d evidence messages, %d items; want 2 and 2", marked, len(blind.Evidence))
	}
	if _, err := b.View("ann", "nope", false); !errors.Is(err, workbench.ErrNoQuestion) {
		t.Errorf("View(unknown) = %v, want ErrNoQuestion", err)
	}
}

func TestExportReportsDroppedQuestions(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	w1, _ := b.View("A", "w1", false)
	w2, _ := b.View("A", "w2", false)
	// w1: one row 2, the rest 0. w2: every row 1 (no primary gold). w3: unlabelled.
	for i, row := range w1.Rows {
		r := 0
		if i == 0 {
			r = 2
		}
		if err := b.Label("A", "w1", row.ChunkID, rel(r)); err != nil {
			t.Fatal(err)
		}
	}
	for _, row := range w2.Rows {
		if err := b.Label("A", "w2", row.ChunkID, rel(1)); err != nil {
			t.Fatal(err)
		}
	}
	ex, err := b.Export("A")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Retained) != 1 || ex.Retained[0].QID != "w1" || ex.Retained[0].Answer == "" {
		t.Fatalf("retained %+v, want w1 with its answer", ex.Retained)
	}
	wantDropped := []workbench.Dropped{{QID: "w2", Reason: workbench.DropNoPrimary}, {QID: "w3", Reason: workbench.DropUnjudged}}
	if !slices.Equal(ex.Dropped, wantDropped) {
		t.Errorf("dropped %+v, want %+v", ex.Dropped, wantDropped)
	}
	if len(ex.Qrels["w1"]) != len(w1.Rows) || ex.Qrels["w1"][w1.Rows[0].ChunkID] != 2 || ex.Unjudged != 0 {
		t.Errorf("qrels %v (unjudged %d), want all %d rows of w1 with relevance 0 kept", ex.Qrels, ex.Unjudged, len(w1.Rows))
	}
	// Dropping w1 by hand leaves nothing.
	keep := false
	if err := b.Decide("A", "w1", &keep); err != nil {
		t.Fatal(err)
	}
	ex, _ = b.Export("A")
	if len(ex.Retained) != 0 || ex.Dropped[0] != (workbench.Dropped{QID: "w1", Reason: workbench.DropByAnnotator}) {
		t.Errorf("after drop: retained %v, dropped %v", ex.Retained, ex.Dropped)
	}
	var sb strings.Builder
	ex.WriteReport(&sb)
	if !strings.Contains(sb.String(), "dropped w1: "+workbench.DropByAnnotator) {
		t.Errorf("report %q does not list the drop", sb.String())
	}
}

func TestJudgmentsRoundTripAndBadImportChangesNothing(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	v, _ := b.View("A", "w3", false)
	cid := v.Rows[0].ChunkID
	if err := b.Note("A", "w3", cid, "会場の部屋番号まで書いてある"); err != nil {
		t.Fatal(err)
	}
	if err := b.Label("A", "w3", cid, rel(2)); err != nil {
		t.Fatal(err)
	}
	js, _ := b.Judgments("A")
	if len(js) != 1 || *js[0].Rel != 2 || js[0].Note != "会場の部屋番号まで書いてある" {
		t.Fatalf("judgments %+v", js)
	}
	var out strings.Builder
	if err := workbench.WriteJudgments(&out, js); err != nil {
		t.Fatal(err)
	}
	// The same rows under another annotator, and a replacement of the first.
	in := strings.ReplaceAll(out.String(), `"annotator":"A"`, `"annotator":"B"`) +
		`{"qid":"w3","chunk_id":"` + cid + `","rel":0,"annotator":"B"}` + "\n"
	rep, err := b.ImportJudgments("in.jsonl", strings.NewReader(in))
	if err != nil || rep.Rows != 2 {
		t.Fatalf("import: %+v, %v", rep, err)
	}
	lb, _ := b.Labels("B")
	if lb["w3"][cid] != 0 {
		t.Errorf("B's label %d, want the later row's 0", lb["w3"][cid])
	}
	bad := []struct{ name, line, want string }{
		{"unknown qid", `{"qid":"zz","chunk_id":"` + cid + `","rel":1,"annotator":"B"}`, "pooled qid"},
		{"unknown chunk", `{"qid":"w3","chunk_id":"nope","rel":1,"annotator":"B"}`, "stored chunk_id"},
		{"rel 3", `{"qid":"w3","chunk_id":"` + cid + `","rel":3,"annotator":"B"}`, `"rel" 0, 1 or 2`},
		{"rel string", `{"qid":"w3","chunk_id":"` + cid + `","rel":"2","annotator":"B"}`, `"rel" 0, 1 or 2`},
		{"no annotator", `{"qid":"w3","chunk_id":"` + cid + `","rel":1}`, "annotator"},
		{"annotator with a comma", `{"qid":"w3","chunk_id":"` + cid + `","rel":1,"annotator":"B,C"}`, "no commas"},
		{"annotator with spaces around", `{"qid":"w3","chunk_id":"` + cid + `","rel":1,"annotator":" B"}`, "no surrounding spaces"},
		{"annotator too long", `{"qid":"w3","chunk_id":"` + cid + `","rel":1,"annotator":"` + strings.Repeat("b", 65) + `"}`, "1–64 bytes"},
		{"bad time", `{"qid":"w3","chunk_id":"` + cid + `","rel":1,"annotator":"B","at":"yesterday"}`, "RFC 3339"},
		{"not JSON", `{"qid":`, "JSON object"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			// A good first line must not be stored either.
			in := `{"qid":"w3","chunk_id":"` + cid + `","rel":2,"annotator":"C"}` + "\n" + c.line + "\n"
			_, err := b.ImportJudgments("bad.jsonl", strings.NewReader(in))
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.File != "bad.jsonl" || ie.Line != 2 || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want bad.jsonl:2 expecting %q", err, c.want)
			}
			if lc, _ := b.Labels("C"); len(lc) != 0 {
				t.Errorf("a failed import stored %v", lc)
			}
		})
	}
}

func TestGroupRecall(t *testing.T) {
	groups := []workbench.Group{
		{QID: "q", MessageIDs: []string{"m1"}, ChunkIDs: []string{"a", "b"}}, // overlapping windows a, b
		{QID: "q", MessageIDs: []string{"m2"}, ChunkIDs: []string{"c"}},
		{QID: "r", ChunkIDs: []string{"d"}},
	}
	run := trec.Run{"q": {{ChunkID: "b"}, {ChunkID: "x"}, {ChunkID: "c"}}}
	cases := []struct {
		k    int
		q, r float64 // q: groups hit / 2 groups; r: its ranking is empty
	}{{0, 0, 0}, {1, 1.0 / 2, 0}, {2, 1.0 / 2, 0}, {3, 2.0 / 2, 0}, {50, 2.0 / 2, 0}}
	for _, c := range cases {
		got := workbench.GroupRecall(groups, run, c.k)
		if got["q"] != c.q || got["r"] != c.r || len(got) != 2 {
			t.Errorf("group recall@%d = %v, want q %v and r %v (no hit in an empty ranking), nothing else", c.k, got, c.q, c.r)
		}
	}
}

// TestExportGroups: the exported groups are gold.Groups over the stored
// evidence with the annotator's labels as relevance: the relevance-2 chunks
// holding the answer message are one group, every other relevance-2 chunk is
// a group of its own (a support message joins nothing), and chunks labelled
// below 2 are in no group.
func TestExportGroups(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	b := workbench.Open(st)
	v, err := b.View("A", "w2", true)
	if err != nil {
		t.Fatal(err)
	}
	answer := ""
	for _, e := range v.Evidence {
		if e.Role == gold.RoleAnswer {
			answer = e.MessageID
		}
	}
	if answer == "" || len(v.Rows) < 3 {
		t.Fatalf("fixture: w2 has answer message %q and %d rows; want one and at least 3 rows", answer, len(v.Rows))
	}
	want := []workbench.Group{{QID: "w2", MessageIDs: []string{answer}}}
	for i, row := range v.Rows {
		r := 2
		if i == len(v.Rows)-1 && !slices.Contains(row.Evidence, answer) {
			r = 1 // the last row, unless it holds the answer: relevance 1, in no group
		}
		if err := b.Label("A", "w2", row.ChunkID, rel(r)); err != nil {
			t.Fatal(err)
		}
		switch {
		case slices.Contains(row.Evidence, answer):
			want[0].ChunkIDs = append(want[0].ChunkIDs, row.ChunkID)
		case r == 2:
			want = append(want, workbench.Group{QID: "w2", ChunkIDs: []string{row.ChunkID}, MessageIDs: []string{}})
		}
	}
	for _, g := range want {
		slices.Sort(g.ChunkIDs)
	}
	slices.SortFunc(want, func(a, b workbench.Group) int { return strings.Compare(a.ChunkIDs[0], b.ChunkIDs[0]) })
	ex, err := b.Export("A")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ex.Groups, want) {
		t.Errorf("groups %+v,\nwant %+v", ex.Groups, want)
	}
}

func mustMessages(t *testing.T, st interface {
	Sources() ([]store.SourceInfo, error)
	Messages(string) ([]chat.Message, error)
}) []chat.Message {
	t.Helper()
	srcs, err := st.Sources()
	if err != nil {
		t.Fatal(err)
	}
	var out []chat.Message
	for _, s := range srcs {
		ms, err := st.Messages(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ms...)
	}
	return out
}

package memory_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/store"
)

// TestNotices: each kind of notice comes from the search that calls for it,
// with its code, in the order not found or low confidence, warnings, notes;
// the notices' warnings and notes are Response.Warnings and Response.Notes.
func TestNotices(t *testing.T) {
	st := historyStore(t)
	future := time.Date(2099, 1, 1, 0, 0, 0, 0, time.Local)
	for _, tc := range []struct {
		name      string
		opts      memory.Options
		q         memory.Query
		wantKinds []memory.NoticeKind
		wantCodes []string
	}{
		{"nothing matches", memory.Options{}, memory.Query{Text: "zqzqzq xyzzy", K: 3},
			[]memory.NoticeKind{memory.KindNotFound}, []string{memory.CodeNotFound}},
		{"too little of the question", memory.Options{}, memory.Query{Text: "鍋 zqzqzq xyzzy plugh quux frobnitz", K: 3},
			[]memory.NoticeKind{memory.KindLowConfidence}, []string{memory.CodeLowConfidence}},
		// 保険証 and 玄関 are held by the top window; zqzqzq is nowhere
		{"a word the history never contains, the rest found", memory.Options{}, memory.Query{Text: "保険証 玄関 保険証の棚 zqzqzq", K: 3},
			[]memory.NoticeKind{memory.KindNote}, []string{memory.CodeMissingWords}},
		// no hit at all: nothing for the filters to keep, so no filters note
		{"nothing matches, filtered", memory.Options{}, memory.Query{Text: "zqzqzq xyzzy", K: 3, Since: future},
			[]memory.NoticeKind{memory.KindNotFound}, []string{memory.CodeNotFound}},
		{"a filter keeps nothing", memory.Options{}, memory.Query{Text: "保険証", K: 3, Since: future},
			[]memory.NoticeKind{memory.KindNotFound, memory.KindNote}, []string{memory.CodeNotFound, memory.CodeFiltersMatchNone}},
		// 玄関 is only in the family chat, where 店長 never writes
		{"a sender filter keeps nothing", memory.Options{}, memory.Query{Text: "玄関", K: 3, Sender: "店長"},
			[]memory.NoticeKind{memory.KindNotFound, memory.KindNote}, []string{memory.CodeNotFound, memory.CodeFiltersMatchNone}},
		{"a chat filter keeps nothing", memory.Options{}, memory.Query{Text: "玄関", K: 3, Sources: []string{"[LINE] カフェ バイトのトーク.txt"}},
			[]memory.NoticeKind{memory.KindNotFound, memory.KindNote}, []string{memory.CodeNotFound, memory.CodeFiltersMatchNone}},
		{"a word inside a longer run under the paper's tokenizer", memory.Options{Tokenizer: "paper-regex"}, memory.Query{Text: "保険", K: 3},
			[]memory.NoticeKind{memory.KindNote}, []string{memory.CodeLiteralFallback}},
		{"no term of the model's vocabulary", memory.Options{Retriever: "raw_text_vector"}, memory.Query{Text: "zqzqzq", K: 3},
			[]memory.NoticeKind{memory.KindWarning}, []string{memory.CodeZeroQueryVector}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := memory.Open(st, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := m.Search(context.Background(), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []memory.NoticeKind
			var codes, warnings, notes []string
			for _, n := range resp.Notices {
				kinds, codes = append(kinds, n.Kind), append(codes, n.Code)
				switch n.Kind {
				case memory.KindWarning:
					warnings = append(warnings, n.Message)
				case memory.KindNote:
					notes = append(notes, n.Message)
				}
				if n.Message == "" {
					t.Errorf("notice %s has no message", n.Code)
				}
			}
			if !reflect.DeepEqual(kinds, tc.wantKinds) || !reflect.DeepEqual(codes, tc.wantCodes) {
				t.Errorf("notices %+v, want kinds %v with codes %v", resp.Notices, tc.wantKinds, tc.wantCodes)
			}
			if !reflect.DeepEqual(warnings, resp.Warnings) || !reflect.DeepEqual(notes, resp.Notes) {
				t.Errorf("warnings %q and notes %q, want the notices' %q and %q", resp.Warnings, resp.Notes, warnings, notes)
			}
		})
	}
}

// TestRankedSummariesNotice: a search ranked by the summaries says so when
// it has results, and has nothing to say it of when it has none.
func TestRankedSummariesNotice(t *testing.T) {
	st := historyStore(t)
	ids, err := st.ChunkIDs()
	if err != nil {
		t.Fatal(err)
	}
	var rows []store.SummaryRow
	for _, id := range ids {
		rows = append(rows, store.SummaryRow{ChunkID: id, Summary: "家族の予定の話", Origin: "test"})
	}
	if err := st.PutSummaries(rows); err != nil {
		t.Fatal(err)
	}
	m, err := memory.Open(st, memory.Options{Retriever: "embedding_text_bm25"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		question string
		want     []string
	}{
		{"保険証 玄関", []string{memory.CodeRankedSummaries}},
		{"zqzqzq xyzzy", []string{memory.CodeNotFound}},
		// two notes, in the order the search gave them
		{"保険証 玄関 保険証の棚 zqzqzq", []string{memory.CodeRankedSummaries, memory.CodeMissingWords}},
	} {
		resp, err := m.Search(context.Background(), memory.Query{Text: c.question, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, n := range resp.Notices {
			codes = append(codes, n.Code)
		}
		if !reflect.DeepEqual(codes, c.want) {
			t.Errorf("%q: notices %q, want %q", c.question, codes, c.want)
		}
	}
}

// TestNotFoundNoticeNamesTheMissingWords: a not-found or low-confidence
// notice carries the question's words the history never contains, the
// same as the confidence.
func TestNotFoundNoticeNamesTheMissingWords(t *testing.T) {
	m, err := memory.Open(historyStore(t), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Search(context.Background(), memory.Query{Text: "鍋 zqzqzq xyzzy plugh quux frobnitz", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"zqzqzq", "xyzzy", "plugh", "quux", "frobnitz"}
	if len(resp.Notices) == 0 {
		t.Fatalf("no notices; confidence %+v", resp.Confidence)
	}
	if !reflect.DeepEqual(resp.Notices[0].Missing, want) || !reflect.DeepEqual(resp.Confidence.Missing, want) {
		t.Errorf("notices %+v, confidence %+v; want missing %q in both", resp.Notices, resp.Confidence, want)
	}
	if resp.Notices[0].Message != memory.NotFoundNote(*resp.Confidence) {
		t.Errorf("message %q, want NotFoundNote %q", resp.Notices[0].Message, memory.NotFoundNote(*resp.Confidence))
	}
}

// TestShownConfidence: a value is cut to two decimals, so it reads below
// the threshold exactly when it is below it.
func TestShownConfidence(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{
		{0.2789, 0.27},
		{0.28, 0.28},
		{0.3, 0.30}, // 0.29999… in binary
		{1, 1},
		{0, 0},
	} {
		if got := memory.Shown(c.v); got != c.want {
			t.Errorf("Shown(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	note := memory.NotFoundNote(memory.Confidence{Value: 0.2789, Threshold: 0.28, Low: true})
	if want := "holds 27% of the question (confidence 0.27 < 0.28)"; !strings.Contains(note, want) {
		t.Errorf("note %q, want it to say %q", note, want)
	}
}

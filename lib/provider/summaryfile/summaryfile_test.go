package summaryfile_test

import (
	"context"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/summaryfile"
)

func TestParse(t *testing.T) {
	s, err := summaryfile.Parse("sums.jsonl", strings.NewReader(
		`{"chunk_id": "a", "summary": "一つ目"}`+"\n\n"+
			`{"chunk_id": "b", "summary": "二つ目", "extra": 1}`+"\n"+
			`{"chunk_id": "a", "summary": "上書き"}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 || s.Model() != "file:sums.jsonl" || s.Remote() || !strings.HasPrefix(s.Params(), "sha256=") {
		t.Errorf("len %d model %s params %s", s.Len(), s.Model(), s.Params())
	}
	res, err := s.Summarize(context.Background(), provider.SummaryRequest{ID: "a", Input: "ignored"})
	if err != nil || res.Text != "上書き" {
		t.Errorf("a = %q, %v (last line must win)", res.Text, err)
	}
	_, err = s.Summarize(context.Background(), provider.SummaryRequest{ID: "zz"})
	if !provider.IsPermanent(err) || !strings.Contains(err.Error(), "sums.jsonl has no summary for chunk zz") {
		t.Errorf("missing chunk err = %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"not json":        "{",
		"number summary":  `{"chunk_id": "a", "summary": 5}`,
		"missing id":      `{"summary": "x"}`,
		"empty id":        `{"chunk_id": "", "summary": "x"}`,
		"invalid utf8":    "{\"chunk_id\": \"a\", \"summary\": \"\xff\"}",
		"second line bad": `{"chunk_id": "a", "summary": "x"}` + "\n[]",
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := summaryfile.Parse("f.jsonl", strings.NewReader(in))
			if err == nil || !strings.HasPrefix(err.Error(), "f.jsonl:") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

func TestParamsFollowContent(t *testing.T) {
	a, _ := summaryfile.Parse("f", strings.NewReader(`{"chunk_id": "a", "summary": "x"}`))
	b, _ := summaryfile.Parse("f", strings.NewReader(`{"chunk_id": "a", "summary": "y"}`))
	if a.Params() == b.Params() {
		t.Error("different files share params")
	}
}

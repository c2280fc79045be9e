package memory_test

import (
	"testing"

	"github.com/linemem/linemem/lib/memory"
)

func TestMatches(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		terms []string
		want  []memory.Span
	}{
		{"no terms", "締切は金曜", nil, nil},
		{"one term", "締切は金曜", []string{"締切"}, []memory.Span{{0, len("締切")}}},
		{"ascii case-insensitive", "Deadline friday", []string{"deadline"}, []memory.Span{{0, 8}}},
		{"A and Z folded too", "AZ", []string{"az"}, []memory.Span{{0, 2}}},
		{"longest first at a position", "文化祭ポスター", []string{"文化", "文化祭"}, []memory.Span{{0, len("文化祭")}}},
		{"two occurrences", "aa bb aa", []string{"aa"}, []memory.Span{{0, 2}, {6, 8}}},
		{"overlapping bigrams merge", "保険証です", []string{"保険", "険証"}, []memory.Span{{0, len("保険証")}}},
		{"touching terms merge", "締切金曜", []string{"締切", "金曜"}, []memory.Span{{0, len("締切金曜")}}},
		{"overlapping occurrences of one term", "aaa", []string{"aa"}, []memory.Span{{0, 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := memory.Matches(c.text, c.terms)
			if len(got) != len(c.want) {
				t.Fatalf("Matches(%q, %q) = %v, want %v", c.text, c.terms, got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("Matches(%q, %q) = %v, want %v", c.text, c.terms, got, c.want)
				}
			}
		})
	}
}

func TestQueryValidate(t *testing.T) {
	for _, q := range []memory.Query{{Text: "", K: 5}, {Text: "x", K: 0}, {Text: "x", K: memory.MaxK + 1}, {Text: "x", K: -1}} {
		if err := q.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", q)
		}
	}
	if err := (memory.Query{Text: "締切", K: 5}).Validate(); err != nil {
		t.Errorf("Validate(good) = %v", err)
	}
}

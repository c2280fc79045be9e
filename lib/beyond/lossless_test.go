package beyond_test

import (
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/chat"
)

func TestBorrowSummaries(t *testing.T) {
	paper := []chat.Chunk{{ID: "p1", MessageIDs: []string{"m1", "m2"}}, {ID: "p2", MessageIDs: []string{"m3", "m4", "m5"}}}
	lossless := []chat.Chunk{
		{ID: "p1", MessageIDs: []string{"m1", "m2"}},
		{ID: "l2", MessageIDs: []string{"m2", "m3", "m4"}}, // shares 1 with p1, 2 with p2
		{ID: "l3", MessageIDs: []string{"m9"}, RawText: "raw"},
	}
	got, borrowed := beyond.BorrowSummaries(lossless, paper, map[string]string{"p1": "S1", "p2": "S2"})
	want := map[string]string{"p1": "S1", "l2": "S2", "l3": "raw"}
	if !reflect.DeepEqual(got, want) || borrowed != 2 {
		t.Errorf("BorrowSummaries = %v, %d borrowed; want %v, 2", got, borrowed, want)
	}
}

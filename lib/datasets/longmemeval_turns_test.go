package datasets_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
)

// TestLongMemEvalTurnTimes: turn j of a session (counting both roles) is at
// the session's date + j × LongMemEvalTurnStep; only user turns are kept,
// and a session without user turns is no source, counted in the notes.
func TestLongMemEvalTurnTimes(t *testing.T) {
	onlyAssistant := `[{"role": "assistant", "content": "Hello."}]`
	path := writeTemp(t, "lme.json", "[\n"+lmeQuestion("q1", []string{"s", "e"},
		[]string{lmeSession("I like tea.", "Good.", "And cake."), onlyAssistant}, []string{"s"})+"\n]")
	f, _, err := datasets.ReadLongMemEval(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Sources) != 1 {
		t.Fatalf("%d sources, want 1 (session e has no user turn)", len(f.Sources))
	}
	const date = "2023-05-20 02:21" // lmeQuestion's haystack date
	turns := f.Sources[0].Turns
	for i, want := range []struct{ key, at, text string }{
		{"s_1", date, "I like tea."},             // turn j is "sid_(j+1)"
		{"s_3", "2023-05-20 02:23", "And cake."}, // 02:21 + 2 × 1 min
	} {
		if i >= len(turns) {
			t.Fatalf("%d turns, want 2", len(turns))
		}
		if got := turns[i]; got.Key != want.key || got.At.Format("2006-01-02 15:04") != want.at || got.Text != want.text {
			t.Errorf("turn %d = %s at %s %q, want %s at %s %q", i, got.Key, got.At.Format("2006-01-02 15:04"), got.Text, want.key, want.at, want.text)
		}
	}
	if got := f.Info.Notes["sessions_without_user_turns"]; got != 1 {
		t.Errorf("sessions without user turns = %v, want 1", got)
	}
}

// TestLongMemEvalInvalidUTF8AtTheStart: an invalid byte at offset 0 is
// named as such, not as a file that is no JSON array.
func TestLongMemEvalInvalidUTF8AtTheStart(t *testing.T) {
	_, _, err := datasets.ReadLongMemEval(writeTemp(t, "lme.json", "\xff[\n]"))
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 1 || !strings.Contains(ie.Expected, "UTF-8") {
		t.Errorf("error %v, want lme.json:1 naming UTF-8", err)
	}
}

package datasets_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
)

// TestLoCoMoLaterSampleErrorLine: an error in the second sample names the
// line of its offending value whatever white space stands between the two
// samples. locomoDoc's sample object spans its lines 2 to 14 (speaker of
// the second turn on line 10, its 9th), so in "[\n" + first + sep + second
// the second sample begins on line 14 + (newlines of sep) and its bad
// speaker is 8 lines further.
func TestLoCoMoLaterSampleErrorLine(t *testing.T) {
	sample := func(id, turn2 string) string {
		doc := locomoDoc(id, turnA, turn2, qaOK)
		return strings.TrimSuffix(strings.TrimPrefix(doc, "[\n"), "\n]\n")
	}
	bad := `{"speaker": "Cy", "dia_id": "D1:2", "text": "b"}`
	for _, sep := range []string{",\n", ",\n\n\n", ",\n" + strings.Repeat(" ", 300), ",\r\n\t\t"} {
		path := writeTemp(t, "locomo10.json", "[\n"+sample(`"c"`, turnB)+sep+sample(`"d"`, bad)+"\n]\n")
		_, _, err := datasets.ReadLoCoMo(path)
		want := 14 + strings.Count(sep, "\n") + 8
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Line != want || !strings.Contains(ie.Expected, "speaker") {
			t.Errorf("separator %q: error %v, want locomo10.json:%d naming the speaker", sep, err, want)
		}
	}
}

package datasets_test

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/questions"
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

// TestLoCoMoNotes: the counts dataset.json's notes give. Session 1 (two
// turns, the second with an image caption) ends at 1:57 pm; session 2
// begins exactly LoCoMo's 180-minute session gap later, so it is close to
// the previous one; session 3 has no turns. Of the evidence IDs, "x" has
// no dia_id shape and D9:9 names no turn: two unresolved.
func TestLoCoMoNotes(t *testing.T) {
	doc := `[{"sample_id": "c", "conversation": {"speaker_a": "Ann", "speaker_b": "Bob",
"session_1_date_time": "1:56 pm on 8 May, 2023",
"session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "a"}, {"speaker": "Bob", "dia_id": "D1:2", "text": "b", "blip_caption": "a dog"}],
"session_2_date_time": "4:57 pm on 8 May, 2023",
"session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "c"}],
"session_3_date_time": "5:00 pm on 8 May, 2023",
"session_3": []},
"qa": [{"question": "What?", "answer": "a", "evidence": ["D1:1; D9:9", "x"], "category": 4}]}]`
	f, _, err := datasets.ReadLoCoMo(writeTemp(t, "locomo10.json", doc))
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]int{
		"speakers":                            2,
		"image_turns_with_caption":            1,
		"sessions_without_turns":              1,
		"sessions_within_180_min_of_previous": 1,
		"evidence_ids_unresolved":             2,
		"turn_step_seconds":                   int(datasets.LoCoMoTurnStep / time.Second),
	} {
		if got := f.Info.Notes[key]; got != want {
			t.Errorf("notes[%s] = %v, want %d", key, got, want)
		}
	}
}

// TestLoCoMoQAErrorNamesItem: a qa item's error names its 1-based
// position in the sample.
func TestLoCoMoQAErrorNamesItem(t *testing.T) {
	bad := `{"question": "Who?", "answer": "x", "evidence": ["D1:1"], "category": 9}`
	for _, c := range []struct {
		qa   string
		item int
	}{
		{bad, 1},
		{qaOK + ",\n" + bad, 2},
	} {
		_, _, err := datasets.ReadLoCoMo(writeTemp(t, "locomo10.json", locomoDoc(`"c"`, turnA, turnB, c.qa)))
		if want := fmt.Sprintf("qa item %d of c", c.item); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one naming %s", err, want)
		}
	}
}

// TestLoCoMoCategoryStats: the per-category table of locomo_small.json's
// sample taken twice (conv-x, conv-y), so each count is twice the sample's
// and each mean that of one sample. Per sample, category 1: q001 (D1:1 and
// D2:2, two sessions); 2: q002 ("When", D1:1); 4: q003 (D1:2) and q005
// (D9:9, no turn: no evidence, no session); 5: q004 (adversarial_answer,
// D2:2).
func TestLoCoMoCategoryStats(t *testing.T) {
	f, _, err := datasets.ReadLoCoMo(twoSamples(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []datasets.CategoryStats{
		{Category: 1, Questions: 2, MeanEvidence: 2, MeanSessions: 2, MultiSession: 1, FirstWords: map[string]int{"what": 2}, DerivedType: questions.Aggregate},
		{Category: 2, Questions: 2, MeanEvidence: 1, MeanSessions: 1, WhenWhoWhere: 1, FirstWords: map[string]int{"when": 2}, DerivedType: questions.NamedEntity},
		{Category: 4, Questions: 4, MeanEvidence: (1 + 0 + 1 + 0) / 4.0, MeanSessions: (1 + 0 + 1 + 0) / 4.0, FirstWords: map[string]int{"what": 4}, DerivedType: questions.Contextual},
		{Category: 5, Questions: 2, MeanEvidence: 1, MeanSessions: 1, Adversarial: 1, FirstWords: map[string]int{"what": 2}, DerivedType: datasets.AdversarialType},
	}
	if got := f.Info.Notes["categories"]; !reflect.DeepEqual(got, want) {
		t.Errorf("categories:\n%+v\nwant\n%+v", got, want)
	}
}

// TestLoCoMoFirstWords: a category's table keeps its five most frequent
// lower-cased first words, ties in alphabetical order.
func TestLoCoMoFirstWords(t *testing.T) {
	var qa []string
	for _, q := range []string{"Zed?", "zed, again?", "Why?", "How?", "Is it?", "Do you?", "Can you?"} {
		qa = append(qa, `{"question": "`+q+`", "answer": "x", "evidence": ["D1:1"], "category": 4}`)
	}
	f, _, err := datasets.ReadLoCoMo(writeTemp(t, "locomo10.json", locomoDoc(`"c"`, turnA, turnB, strings.Join(qa, ",\n"))))
	if err != nil {
		t.Fatal(err)
	}
	table := f.Info.Notes["categories"].([]datasets.CategoryStats)
	want := map[string]int{"zed": 2, "can": 1, "do": 1, "how": 1, "is": 1}
	if len(table) != 1 || !maps.Equal(table[0].FirstWords, want) {
		t.Errorf("categories %+v, want one with first words %v", table, want)
	}
}

// TestLoCoMoInvalidUTF8AtTheStart: an invalid byte at offset 0 is named as
// such, not as a file that is no JSON array.
func TestLoCoMoInvalidUTF8AtTheStart(t *testing.T) {
	_, _, err := datasets.ReadLoCoMo(writeTemp(t, "locomo10.json", "\xff[\n]"))
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 1 || !strings.Contains(ie.Expected, "UTF-8") {
		t.Errorf("error %v, want locomo10.json:1 naming UTF-8", err)
	}
}

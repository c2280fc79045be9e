package datasets_test

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/questions"
)

// TestLeadSummary: texts joined by " / " (empty texts skipped) until at
// least LeadSummaryMinRunes runes, then cut at LeadSummaryMaxRunes.
func TestLeadSummary(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	for _, c := range []struct {
		name  string
		texts []string
		want  string
	}{
		{"none", nil, ""},
		{"one", []string{"a"}, "a"},
		{"two joined", []string{"a", "b"}, "a / b"},
		{"empty texts skipped", []string{"", "a", "", "b"}, "a / b"},
		{"stops at the minimum", []string{x(datasets.LeadSummaryMinRunes), "b"}, x(datasets.LeadSummaryMinRunes)},
		{"separator counted", []string{x(datasets.LeadSummaryMinRunes - 4), "b", "c"}, x(datasets.LeadSummaryMinRunes-4) + " / b"}, // (min−4) + 3 + 1 = min
		{"one under the minimum goes on", []string{x(datasets.LeadSummaryMinRunes - 1), "b"}, x(datasets.LeadSummaryMinRunes-1) + " / b"},
		{"cut at the maximum", []string{x(datasets.LeadSummaryMaxRunes + 10)}, x(datasets.LeadSummaryMaxRunes)},
		{"cut in runes", []string{strings.Repeat("あ", datasets.LeadSummaryMaxRunes+1)}, strings.Repeat("あ", datasets.LeadSummaryMaxRunes)},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs := make([]chat.Message, len(c.texts))
			for i, text := range c.texts {
				msgs[i] = chat.Message{Text: text}
			}
			if got := datasets.LeadSummary(msgs); got != c.want {
				t.Errorf("LeadSummary(%q) = %q, want %q", c.texts, got, c.want)
			}
		})
	}
}

// TestBuildCountsAndFiles: dataset.json counts the kept questions by type,
// and native.jsonl is written only for a data set that has a native
// evaluation (LoCoMo), not for RealPersonaChat.
func TestBuildCountsAndFiles(t *testing.T) {
	f, _, err := datasets.ReadLoCoMo("testdata/locomo_small.json")
	if err != nil {
		t.Fatal(err)
	}
	b := build(t, f)
	// q001 aggregate, q002 named_entity, q003 contextual; q004 is
	// adversarial (no-answer), q005 is dropped.
	want := map[string]int{questions.Aggregate: 1, questions.NamedEntity: 1, questions.Contextual: 1}
	if !maps.Equal(b.Info.QuestionsByType, want) {
		t.Errorf("questions by type = %v, want %v", b.Info.QuestionsByType, want)
	}
	var info datasets.Info
	if err := json.Unmarshal(b.Files[datafolder.DatasetFile], &info); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(info.QuestionsByType, want) || info.Questions != 3 || info.NoAnswer != 1 {
		t.Errorf("dataset.json: questions %d, no-answer %d, by type %v; want 3, 1, %v", info.Questions, info.NoAnswer, info.QuestionsByType, want)
	}
	if _, ok := b.Files[datasets.NativeFile]; !ok {
		t.Errorf("LoCoMo: no %s", datasets.NativeFile)
	}

	rpc, _, err := datasets.ReadRealPersonaChat("testdata/rpc_small.jsonl", datasets.RPCOptions{Users: 2, Questions: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := build(t, rpc).Files[datasets.NativeFile]; ok {
		t.Errorf("RealPersonaChat has no native evaluation, but %s was written", datasets.NativeFile)
	}
}

// TestSplitWithFewerNoAnswerUsers: a no-answer question whose user is not
// named (noAnswerUser shorter than NoAnswer) goes to no user's folder.
func TestSplitWithFewerNoAnswerUsers(t *testing.T) {
	f, noAnswerUser, err := datasets.ReadLoCoMo("testdata/locomo_small.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, named := range [][]string{nil, noAnswerUser} {
		subs := f.Split(named)
		if len(subs) != 1 {
			t.Fatalf("Split(%v): %d folders, want 1", named, len(subs))
		}
		if got, want := len(subs[0].NoAnswer), len(named); got != want {
			t.Errorf("Split(%v): %d no-answer questions, want %d", named, got, want)
		}
	}
}

// twoSamples writes locomo_small.json with its sample repeated as conv-y.
func twoSamples(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/locomo_small.json")
	if err != nil {
		t.Fatal(err)
	}
	var samples []map[string]any
	if err := json.Unmarshal(data, &samples); err != nil {
		t.Fatal(err)
	}
	second := maps.Clone(samples[0])
	second["sample_id"] = "conv-y"
	out, err := json.Marshal(append(samples, second))
	if err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, "locomo10.json", string(out))
}

// TestSplitKeepsEachUsersOwn: each user's folder holds that user's
// sources, questions, no-answer questions and native questions, and none
// of the other user's.
func TestSplitKeepsEachUsersOwn(t *testing.T) {
	f, noAnswerUser, err := datasets.ReadLoCoMo(twoSamples(t))
	if err != nil {
		t.Fatal(err)
	}
	subs := f.Split(noAnswerUser)
	if len(subs) != 2 {
		t.Fatalf("%d folders, want 2", len(subs))
	}
	for i, user := range []string{"conv-x", "conv-y"} {
		sub := subs[i]
		if !slices.Equal(sub.Info.Users, []string{user}) {
			t.Errorf("folder %d: users %v, want [%s]", i, sub.Info.Users, user)
		}
		if len(sub.Sources) != 1 || sub.Sources[0].Name != user+".json" {
			t.Errorf("%s: sources %d, want only %s.json", user, len(sub.Sources), user)
		}
		// Of the sample's five qa items, three are retrieval questions, one
		// no-answer; all five are native.
		if got := len(sub.Questions); got != 3 {
			t.Errorf("%s: %d questions, want 3", user, got)
		}
		if got := len(sub.NoAnswer); got != 1 {
			t.Errorf("%s: %d no-answer questions, want 1", user, got)
		}
		if got := len(sub.Native); got != 5 {
			t.Errorf("%s: %d native questions, want 5", user, got)
		}
		for _, q := range sub.Native {
			if q.User != user {
				t.Errorf("%s's folder holds native question %s of %s", user, q.QID, q.User)
			}
		}
	}
}

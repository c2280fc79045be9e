package datasets_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/questions"
)

// rpcDialogue is a dialogue line whose utterances are "speaker:text" (ID i
// in order), all at one time but the ones whose text ends in "@NaT".
func rpcDialogue(id int, a, b string, utterances ...string) string {
	return rpcDialogueAt(id, a, b, "2022-08-06T14:51:18", utterances...)
}

// rpcDialogueAt is rpcDialogue with its utterances at stamp.
func rpcDialogueAt(id int, a, b, stamp string, utterances ...string) string {
	var us []string
	for i, u := range utterances {
		speaker, text, _ := strings.Cut(u, ":")
		at := `"` + stamp + `"`
		if t, ok := strings.CutSuffix(text, "@NaT"); ok {
			text, at = t, `"NaT"`
		}
		us = append(us, `{"utterance_id":`+itoa(i)+`,"interlocutor_id":"`+speaker+`","text":"`+text+`","timestamp":`+at+`}`)
	}
	return `{"dialogue_id":` + itoa(id) + `,"interlocutors":["` + a + `","` + b + `"],"utterances":[` + strings.Join(us, ",") + "]}\n"
}

// TestRealPersonaChatUsersAndNotes: AA is in four dialogues, AB in three,
// AC in two, AD in one (AE and AF only in a dialogue without utterances),
// so the two users are AA and AB. AA says frequent four times: each of its
// content terms occurs in four utterances of AA's history, over
// KnownItemMaxDF, so it is never a target; rare is AA's one question.
func TestRealPersonaChatUsersAndNotes(t *testing.T) {
	const (
		frequent = "東京駅で新幹線の切符を買いました。" // 東京駅, 新幹線, 切符: 17 runes
		rare     = "昨日は淀川の花火大会に行きました。" // 昨日, 淀川, 花火大会: 17 runes
	)
	// The file names AC, AB and AD before AA, so that the order in which
	// participants are first met is not their ranking.
	path := writeTemp(t, "dialogues.jsonl",
		rpcDialogue(5, "AC", "AB", "AB:どうも。", "AC:どうも。")+
			rpcDialogue(3, "AD", "AA", "AA:"+frequent, "AD:どうも。")+
			rpcDialogue(1, "AA", "AB", "AA:"+frequent, "AB:どうも。@NaT")+
			rpcDialogue(2, "AC", "AA", "AA:"+frequent, "AC:どうも。")+
			rpcDialogue(4, "AB", "AA", "AA:"+frequent, "AA:"+rare)+
			rpcDialogue(6, "AE", "AF"))
	f, _, err := datasets.ReadRealPersonaChat(path, datasets.RPCOptions{Users: 2, Questions: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Info.Users, []string{"AA", "AB"}) {
		t.Errorf("users %v, want [AA AB] (most dialogues first)", f.Info.Users)
	}
	if len(f.Questions) != 1 || f.Questions[0].Answer != rare || f.Questions[0].Type != questions.NamedEntity {
		t.Errorf("questions %+v, want one named_entity question answered by %q", f.Questions, rare)
	}
	built := map[string]int{}
	for _, q := range f.Questions {
		built[q.Type]++
	}
	if got := f.Info.Notes["questions_built"].(map[string]int); !maps.Equal(got, built) {
		t.Errorf("questions built %v, want %v", got, built)
	}
	for key, want := range map[string]int{
		"dialogues_in_file":            5,
		"utterances_without_time":      1,
		"dialogues_without_utterances": 1,
		"participants":                 4,
		"dialogues_of_least_user":      3, // AB: dialogues 1, 4 and 5
	} {
		if got := f.Info.Notes[key]; got != want {
			t.Errorf("notes[%s] = %v, want %d", key, got, want)
		}
	}
}

// kanjiTerm is the k-th two-kanji content term, distinct for every k.
func kanjiTerm(k int) string { return string([]rune{rune(0x4E00 + 2*k), rune(0x4E00 + 2*k + 1)}) }

// utterance joins terms with "と" and pads with "の" and hiragana to runes
// runes; hiragana separates content terms, so its terms are exactly terms.
func utterance(runes int, terms ...string) string {
	s := strings.Join(terms, "と") + "の"
	return s + strings.Repeat("あ", runes-utf8.RuneCountInString(s))
}

// knownItems converts dialogues (one per argument, AA and AB, each
// argument's utterances separated by "|", all at one time unless the
// argument begins with "@TIMESTAMP|") with AA as the only user and
// returns the types of AA's questions in order and their texts.
func knownItems(t *testing.T, n int, dialogues ...string) (types, texts []string) {
	t.Helper()
	var b strings.Builder
	for i, d := range dialogues {
		stamp := "2022-08-06T14:51:18"
		if rest, ok := strings.CutPrefix(d, "@"); ok {
			stamp, d, _ = strings.Cut(rest, "|")
		}
		b.WriteString(rpcDialogueAt(i+1, "AA", "AB", stamp, strings.Split(d, "|")...))
	}
	f, _, err := datasets.ReadRealPersonaChat(writeTemp(t, "dialogues.jsonl", b.String()), datasets.RPCOptions{Users: 1, Questions: n})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range f.Questions {
		types, texts = append(types, q.Type), append(texts, q.Question.Question)
	}
	return types, texts
}

// TestKnownItemSplit: n questions split into n/5 aggregate (rounded down),
// then named_entity and contextual alternating, named_entity first, the
// named_entity ones ⌈(n − aggregate)/2⌉. The history has 12 dialogues with
// one target each and three terms each said in two dialogues of their own,
// so every split can be filled.
func TestKnownItemSplit(t *testing.T) {
	var dialogues []string
	for k := range 12 {
		dialogues = append(dialogues, "AA:"+utterance(20, kanjiTerm(3*k), kanjiTerm(3*k+1), kanjiTerm(3*k+2))+"|AB:はい。")
	}
	for k := range 3 {
		said := "AA:" + kanjiTerm(100+k) + "に行った。"
		dialogues = append(dialogues, said, said)
	}
	const ne, ctx, agg = questions.NamedEntity, questions.Contextual, questions.Aggregate
	for _, c := range []struct {
		n    int
		want []string
	}{
		{1, []string{ne}},
		{2, []string{ne, ctx}},
		{3, []string{ne, ctx, ne}},
		{4, []string{ne, ctx, ne, ctx}},
		{5, []string{ne, ctx, ne, ctx, agg}},                             // 5/5 = 1 aggregate, (5−1)/2 = 2 named_entity
		{10, []string{ne, ctx, ne, ctx, ne, ctx, ne, ctx, agg, agg}},     // 2 aggregate, 4 + 4
		{11, []string{ne, ctx, ne, ctx, ne, ctx, ne, ctx, ne, agg, agg}}, // 2 aggregate, ⌈9/2⌉ = 5 + 4
		{15, append(slices.Repeat([]string{ne, ctx}, 6), agg, agg, agg)}, // 3 aggregate, 6 + 6
		{20, append(slices.Repeat([]string{ne, ctx}, 6), agg, agg, agg)}, // 4 aggregate asked, 3 terms; 8 + 8 asked, 12 targets
	} {
		if got, _ := knownItems(t, c.n, dialogues...); !slices.Equal(got, c.want) {
			t.Errorf("%d questions: types %v, want %v", c.n, got, c.want)
		}
	}
}

// TestKnownItemTargets: an utterance is a target when it has
// KnownItemMinRunes to KnownItemMaxRunes runes and KnownItemMinTerms
// content terms, the first of its rarest in at most KnownItemMaxDF
// utterances; a term is an aggregate's when the user said it in two or
// more dialogues and it occurs in at most AggregateMaxDF utterances.
func TestKnownItemTargets(t *testing.T) {
	a, b, c, d := kanjiTerm(1), kanjiTerm(2), kanjiTerm(3), kanjiTerm(4)
	// also is an utterance of AB holding terms, in a dialogue of its own.
	also := func(times int, terms ...string) []string {
		return slices.Repeat([]string{"AB:" + strings.Join(terms, "、") + "。"}, times)
	}
	const ne = questions.NamedEntity
	for _, tc := range []struct {
		name      string
		n         int
		dialogues []string
		types     []string
		text      string
	}{
		{"fewest runes", 1, []string{"AA:" + utterance(datasets.KnownItemMinRunes, a, b, c)}, []string{ne}, a + "、" + b + "、" + c + "について話したのはどの会話？"},
		{"too few runes", 1, []string{"AA:" + utterance(datasets.KnownItemMinRunes-1, a, b, c)}, nil, ""},
		{"most runes", 1, []string{"AA:" + utterance(datasets.KnownItemMaxRunes, a, b, c)}, []string{ne}, ""},
		{"too many runes", 1, []string{"AA:" + utterance(datasets.KnownItemMaxRunes+1, a, b, c)}, nil, ""},
		{"two terms", 1, []string{"AA:" + utterance(20, a, b)}, nil, ""},
		{"rarest in KnownItemMaxDF utterances", 1, append([]string{"AA:" + utterance(20, a, b, c)}, also(datasets.KnownItemMaxDF-1, a, b, c)...), []string{ne}, ""},
		{"rarest in more", 1, append([]string{"AA:" + utterance(20, a, b, c)}, also(datasets.KnownItemMaxDF, a, b, c)...), nil, ""},
		// df a = 3, b = 1, c = 2, d = 1: the three rarest are b, c, d,
		// named in text order.
		{"rarest three", 1, append(append([]string{"AA:" + utterance(30, a, b, c, d)}, also(2, a)...), also(1, a, c)...), []string{ne}, b + "、" + c + "、" + d + "について話したのはどの会話？"},
		// a said by AA in two dialogues of their own and by AB in
		// AggregateMaxDF − 2 more: an aggregate; one more and it is not.
		{"aggregate term at AggregateMaxDF", 5, append([]string{"AA:" + a + "に行った。", "AA:" + a + "に行った。"}, also(datasets.AggregateMaxDF-2, a)...), []string{questions.Aggregate}, a + "について話したことを全部"},
		{"aggregate term in AggregateMaxDialogues dialogues", 5, slices.Repeat([]string{"AA:" + a + "に行った。"}, datasets.AggregateMaxDialogues), []string{questions.Aggregate}, ""},
		{"aggregate term in more dialogues", 5, slices.Repeat([]string{"AA:" + a + "に行った。"}, datasets.AggregateMaxDialogues+1), nil, ""},
		// Each of the first two utterances gives its rarest other term as a
		// hint, in time order: dialogue 2 is earlier than dialogue 1.
		{"aggregate hints", 5, []string{"@2022-08-07T10:00:00|AA:" + a + "と" + b + "の話。", "@2022-08-06T10:00:00|AA:" + a + "と" + c + "の話。"}, []string{questions.Aggregate}, a + "について話したことを全部（" + c + "、" + b + "）"},
		{"aggregate term over AggregateMaxDF", 5, append([]string{"AA:" + a + "に行った。", "AA:" + a + "に行った。"}, also(datasets.AggregateMaxDF-1, a)...), nil, ""},
		{"aggregate term in one dialogue", 5, []string{"AA:" + a + "に行った。|AA:" + a + "が好き。"}, nil, ""},
		{"no Latin aggregate term", 5, []string{"AA:abcに行った。", "AA:abcに行った。"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			types, texts := knownItems(t, tc.n, tc.dialogues...)
			if !slices.Equal(types, tc.types) {
				t.Errorf("types %v, want %v", types, tc.types)
			}
			if tc.text != "" && (len(texts) == 0 || texts[0] != tc.text) {
				t.Errorf("questions %q, want the first %q", texts, tc.text)
			}
		})
	}
}

package datasets

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/questions"
)

// RealPersonaChat's names and the known-item procedure's constants.
const (
	RealPersonaChatName = "realpersonachat"
	// RPCTimestampLayout is the layout of an utterance's timestamp; a
	// fractional second after it is read and cut off.
	RPCTimestampLayout = "2006-01-02T15:04:05"
	// RPCNoTime is the timestamp the data set writes when it has none.
	RPCNoTime = "NaT"
	// DefaultRPCUsers is how many participants become users: those with
	// the most dialogues.
	DefaultRPCUsers = 20
	// DefaultRPCQuestions is how many known-item questions each user gets,
	// split 2 : 2 : 1 into named_entity, contextual and aggregate forms.
	DefaultRPCQuestions = 15
	// Target utterances have between KnownItemMinRunes and
	// KnownItemMaxRunes runes and at least KnownItemMinTerms distinct
	// content terms, the rarest of which occurs in at most KnownItemMaxDF
	// utterances of the user's history.
	KnownItemMinRunes = 15
	KnownItemMaxRunes = 120
	KnownItemMinTerms = 3
	KnownItemMaxDF    = 3
	// KnownItemQueryTerms is how many of the rarest terms a named_entity
	// query keeps.
	KnownItemQueryTerms = 3
	// An aggregate question's term occurs in the user's own utterances of
	// 2 to AggregateMaxDialogues dialogues, and in at most AggregateMaxDF
	// utterances of the history.
	AggregateMaxDialogues = 3
	AggregateMaxDF        = 4
)

type rpcUtterance struct {
	UtteranceID    *int   `json:"utterance_id"`
	InterlocutorID string `json:"interlocutor_id"`
	Text           string `json:"text"`
	Timestamp      string `json:"timestamp"`
}

type rpcDialogue struct {
	DialogueID    *int           `json:"dialogue_id"`
	Interlocutors []string       `json:"interlocutors"`
	Utterances    []rpcUtterance `json:"utterances"`
}

// RPCOptions configure ReadRealPersonaChat; zero fields take the defaults.
type RPCOptions struct {
	Users     int // DefaultRPCUsers when 0
	Questions int // per user; DefaultRPCQuestions when 0
}

// ReadRealPersonaChat converts dialogues.jsonl(.gz) (see the package doc):
// the Users participants with the most dialogues (ties: smaller ID first)
// become users; each dialogue they took part in goes into the source of its
// pair of interlocutors ("AA-AB.json", IDs in byte order), so that a user's
// history is one source per partner; known-item questions are built per user.
func ReadRealPersonaChat(path string, opts RPCOptions) (*Folder, []string, error) {
	if opts.Users == 0 {
		opts.Users = DefaultRPCUsers
	}
	if opts.Questions == 0 {
		opts.Questions = DefaultRPCQuestions
	}
	if opts.Users < 1 || opts.Questions < 1 {
		return nil, nil, fmt.Errorf("datasets: realpersonachat: users and questions per user must be 1 or more, got %d and %d", opts.Users, opts.Questions)
	}
	data, orig, err := hashOriginal(path)
	if err != nil {
		return nil, nil, err
	}
	name := orig.File
	var r io.Reader = bytes.NewReader(data)
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, nil, inputerr.At(name, 1, "a gzip stream: "+err.Error())
		}
		defer zr.Close()
		r = zr
	}
	var dialogues []rpcDialogue
	var dialogueLines []int
	userNames := newNameClaims(name)
	seen := map[int]int{}
	emptyDialogues, repeated := 0, 0
	firstLine := map[int][]byte{}
	err = jsonl.Lines(name, r, func(line int, b []byte) error {
		var d rpcDialogue
		if err := json.Unmarshal(b, &d); err != nil {
			return inputerr.At(name, line, "a dialogue {dialogue_id, interlocutors, utterances}: "+err.Error())
		}
		if _, err := indexValues(b, 0, b); err != nil {
			return inputerr.At(name, line, "a dialogue with each key once in an object: "+err.Error())
		}
		if d.DialogueID == nil {
			return inputerr.At(name, line, "a dialogue_id")
		}
		if prev, dup := seen[*d.DialogueID]; dup {
			if bytes.Equal(firstLine[*d.DialogueID], b) {
				repeated++
				return nil
			}
			return inputerr.Atf(name, line, "a unique dialogue_id or a byte-identical copy, got %d again with other content (first on line %d)", *d.DialogueID, prev)
		}
		seen[*d.DialogueID] = line
		firstLine[*d.DialogueID] = append([]byte(nil), b...)
		if len(d.Interlocutors) != 2 || d.Interlocutors[0] == "" || d.Interlocutors[1] == "" || d.Interlocutors[0] == d.Interlocutors[1] {
			return inputerr.At(name, line, "interlocutors, two different non-empty IDs")
		}
		for _, id := range d.Interlocutors {
			if err := checkID(name, line, "an interlocutor ID", id); err != nil {
				return err
			}
			if err := userNames.claim(safeName(id), id, line); err != nil {
				return err
			}
		}
		utterances := map[int]bool{}
		for i, u := range d.Utterances {
			if u.UtteranceID == nil {
				return inputerr.Atf(name, line, "an utterance_id in utterance %d of dialogue %d", i, *d.DialogueID)
			}
			if utterances[*u.UtteranceID] {
				return inputerr.Atf(name, line, "a unique utterance_id in dialogue %d, got %d again", *d.DialogueID, *u.UtteranceID)
			}
			utterances[*u.UtteranceID] = true
			if u.InterlocutorID != d.Interlocutors[0] && u.InterlocutorID != d.Interlocutors[1] {
				return inputerr.Atf(name, line, "utterance %d of dialogue %d by one of %v, got %q", *u.UtteranceID, *d.DialogueID, d.Interlocutors, u.InterlocutorID)
			}
			if u.Timestamp == RPCNoTime {
				continue
			}
			if _, err := time.Parse(RPCTimestampLayout, u.Timestamp); err != nil {
				return inputerr.Atf(name, line, "utterance %d of dialogue %d with a timestamp like 2022-08-06T14:51:18.360000, got %q", *u.UtteranceID, *d.DialogueID, u.Timestamp)
			}
		}
		if len(d.Utterances) == 0 {
			emptyDialogues++
			return nil
		}
		dialogues = append(dialogues, d)
		dialogueLines = append(dialogueLines, line)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(dialogues) == 0 {
		return nil, nil, inputerr.At(name, 1, "at least one dialogue")
	}
	count := map[string]int{}
	for _, d := range dialogues {
		for _, id := range d.Interlocutors {
			count[id]++
		}
	}
	var everyone []string
	for id := range count {
		everyone = append(everyone, id)
	}
	slices.SortFunc(everyone, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	users := everyone[:min(opts.Users, len(everyone))]
	chosen := map[string]bool{}
	for _, u := range users {
		chosen[u] = true
	}
	f := &Folder{Info: Info{Dataset: RealPersonaChatName, Converter: "lib/datasets.ReadRealPersonaChat", ConverterVersion: ConverterVersion,
		Originals: []Original{orig}, Users: append([]string(nil), users...),
		Settings: map[string]any{"users": opts.Users, "questions_per_user": opts.Questions}}}
	bySource := map[string]*Source{}
	pairDialogues := map[string][][]Turn{}
	var names []string
	dialoguesOf := map[string]int{}
	noTime, clamped := 0, 0
	sourceNames := newNameClaims(name)
	for i, d := range dialogues {
		a, b := d.Interlocutors[0], d.Interlocutors[1]
		if b < a {
			a, b = b, a
		}
		sname := a + "-" + b + ".json"
		if err := sourceNames.claim(sname, a+" and "+b, dialogueLines[i]); err != nil {
			return nil, nil, err
		}
		if !chosen[a] && !chosen[b] {
			continue
		}
		src := bySource[sname]
		if src == nil {
			src = &Source{Name: sname}
			for _, id := range []string{a, b} {
				if chosen[id] {
					src.Users = append(src.Users, id)
				}
			}
			bySource[sname] = src
			names = append(names, sname)
		}
		for _, id := range src.Users {
			dialoguesOf[id]++
		}
		turns, nt := dialogueTurns(d)
		noTime += nt
		pairDialogues[sname] = append(pairDialogues[sname], turns)
	}
	slices.Sort(names)
	for _, n := range names {
		src := bySource[n]
		ds := pairDialogues[n]
		slices.SortStableFunc(ds, func(x, y []Turn) int { return x[0].At.Compare(y[0].At) })
		for _, turns := range ds {
			for _, t := range turns {
				if k := len(src.Turns); k > 0 && t.At.Before(src.Turns[k-1].At) {
					t.At = src.Turns[k-1].At
					clamped++
				}
				src.Turns = append(src.Turns, t)
			}
		}
		f.Sources = append(f.Sources, *src)
	}
	byType := map[string]int{}
	for _, u := range users {
		qs := knownItemQuestions(u, f.Sources, opts.Questions)
		for _, q := range qs {
			byType[q.Type]++
		}
		f.Questions = append(f.Questions, qs...)
	}
	f.Info.Notes = map[string]any{
		"dialogues_in_file":              len(dialogues),
		"utterances_without_time":        noTime,
		"dialogues_without_utterances":   emptyDialogues,
		"dialogues_repeated_identically": repeated,
		"utterances_moved_forward":       clamped,
		"participants":                   len(everyone),
		"dialogues_of_least_user":        dialoguesOf[users[len(users)-1]],
		"questions_built":                byType,
		"question_construction":          "known-item simulation (Azzopardi, de Rijke & Balog 2007): rare content terms, a trimmed span, or one rare term said in two or three dialogues",
		"summaries":                      "none in the data set: lead summaries (the chunk's first messages, 200-500 characters), not summaries",
	}
	return f, nil, nil
}

// dialogueTurns returns a dialogue's utterances as turns in utterance
// order, timestamps cut to the second. An utterance without a time (NaT)
// takes the time of the nearest earlier utterance that has one, or, for the
// dialogue's first utterances, of the first that has one; a dialogue without
// any time is dated 1970-01-01 00:00:00 (UTC). It returns how many utterances
// had no time.
func dialogueTurns(d rpcDialogue) ([]Turn, int) {
	var turns []Turn
	last := time.Unix(0, 0).UTC()
	missing := 0
	for _, u := range d.Utterances {
		if at, err := time.Parse(RPCTimestampLayout, u.Timestamp); err == nil {
			last = at.Truncate(time.Second)
			break
		}
	}
	for _, u := range d.Utterances {
		if at, err := time.Parse(RPCTimestampLayout, u.Timestamp); err == nil {
			last = at.Truncate(time.Second)
		} else {
			missing++
		}
		turns = append(turns, Turn{At: last, Sender: u.InterlocutorID, Text: u.Text,
			Key: fmt.Sprintf("%d:%d", *d.DialogueID, *u.UtteranceID), Session: fmt.Sprint(*d.DialogueID)})
	}
	return turns, missing
}

// utteranceRef locates a turn of a source.
type utteranceRef struct {
	source string
	turn   Turn
	terms  []string // distinct content terms in text order
}

// knownItemQuestions builds n questions for user (see the package doc for
// the procedure): candidates are taken in the order of HashID("known-item",
// user, source, key), which is fixed by the data, so the set is the same on
// every run.
func knownItemQuestions(user string, sources []Source, n int) []Question {
	df := map[string]int{}
	var own []utteranceRef
	for _, s := range sources {
		if !slices.Contains(s.Users, user) {
			continue
		}
		for _, t := range s.Turns {
			terms := ContentTerms(t.Text)
			for _, w := range terms {
				df[w]++
			}
			if t.Sender == user {
				own = append(own, utteranceRef{s.Name, t, terms})
			}
		}
	}
	order := func(r utteranceRef) string { return chat.HashID("known-item", user, r.source, r.turn.Key) }
	slices.SortFunc(own, func(a, b utteranceRef) int { return strings.Compare(order(a), order(b)) })
	nAgg := n / 5
	nNE := (n - nAgg + 1) / 2
	nCtx := n - nAgg - nNE
	used := map[string]bool{} // source + dialogue
	var out []Question
	add := func(typ, text, answer string, refs []utteranceRef) {
		q := Question{Question: questions.Question{QID: fmt.Sprintf("%s-q%02d", user, len(out)+1), Question: text, Type: typ, Answer: answer}, User: user}
		for _, r := range refs {
			q.Evidence = append(q.Evidence, Ref{Source: r.source, Key: r.turn.Key, Role: gold.RoleAnswer})
			used[r.source+"#"+r.turn.Session] = true
		}
		out = append(out, q)
	}
	ne, ctx := 0, 0
	for _, r := range own {
		if ne == nNE && ctx == nCtx {
			break
		}
		runes := utf8.RuneCountInString(r.turn.Text)
		if used[r.source+"#"+r.turn.Session] || runes < KnownItemMinRunes || runes > KnownItemMaxRunes || len(r.terms) < KnownItemMinTerms {
			continue
		}
		rare := rarest(r.terms, df, KnownItemQueryTerms)
		if df[rare[0]] > KnownItemMaxDF {
			continue
		}
		if ne < nNE && (ne <= ctx || ctx == nCtx) {
			add(questions.NamedEntity, strings.Join(rare, "、")+"について話したのはどの会話？", r.turn.Text, []utteranceRef{r})
			ne++
			continue
		}
		add(questions.Contextual, "「"+TrimmedSpan(r.turn.Text)+"」と話したときのこと", r.turn.Text, []utteranceRef{r})
		ctx++
	}
	// Aggregate: a term the user said in 2…AggregateMaxDialogues dialogues.
	dialoguesWith := map[string][]utteranceRef{}
	var terms []string
	for _, r := range own {
		for _, w := range r.terms {
			if df[w] > AggregateMaxDF || isLatinOrDigit(w) {
				continue
			}
			if _, ok := dialoguesWith[w]; !ok {
				terms = append(terms, w)
			}
			dialoguesWith[w] = append(dialoguesWith[w], r)
		}
	}
	termOrder := func(w string) string { return chat.HashID("known-item-aggregate", user, w) }
	slices.SortFunc(terms, func(a, b string) int { return strings.Compare(termOrder(a), termOrder(b)) })
	agg := 0
	for _, w := range terms {
		if agg == nAgg {
			break
		}
		refs := dialoguesWith[w]
		slices.SortFunc(refs, func(a, b utteranceRef) int {
			if c := a.turn.At.Compare(b.turn.At); c != 0 {
				return c
			}
			return strings.Compare(a.turn.Key, b.turn.Key)
		})
		sessions := map[string]bool{}
		clash := false
		for _, r := range refs {
			sessions[r.source+"#"+r.turn.Session] = true
			clash = clash || used[r.source+"#"+r.turn.Session]
		}
		if clash || len(sessions) < 2 || len(sessions) > AggregateMaxDialogues {
			continue
		}
		var hints []string
		var answers []string
		for _, r := range refs[:2] {
			for _, h := range rarest(r.terms, df, len(r.terms)) {
				if h != w && !slices.Contains(hints, h) {
					hints = append(hints, h)
					break
				}
			}
		}
		for _, r := range refs {
			answers = append(answers, r.turn.Text)
		}
		text := w + "について話したことを全部"
		if len(hints) > 0 {
			text += "（" + strings.Join(hints, "、") + "）"
		}
		add(questions.Aggregate, text, strings.Join(answers, " / "), refs)
		agg++
	}
	return out
}

// rarest returns up to k of terms with the smallest df (ties: earlier in
// the text), in text order.
func rarest(terms []string, df map[string]int, k int) []string {
	idx := make([]int, len(terms))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return df[terms[a]] - df[terms[b]] })
	idx = idx[:min(k, len(idx))]
	slices.Sort(idx)
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = terms[j]
	}
	return out
}

// TrimmedSpan drops the first and the last quarter of s's runes (rounded
// down) and returns the middle, the part of an utterance a person recalls
// without its opening and its ending.
func TrimmedSpan(s string) string {
	r := []rune(s)
	q := len(r) / 4
	return strings.TrimSpace(string(r[q : len(r)-q]))
}

// script classes of ContentTerms.
const (
	scriptOther = iota
	scriptHan
	scriptKatakana
	scriptLatin
)

func scriptOf(r rune) int {
	switch {
	case unicode.Is(unicode.Han, r) || r == '々':
		return scriptHan
	case unicode.Is(unicode.Katakana, r) || r == 'ー':
		return scriptKatakana
	case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		return scriptLatin
	case r >= 'Ａ' && r <= 'Ｚ' || r >= 'ａ' && r <= 'ｚ' || r >= '０' && r <= '９':
		return scriptLatin
	}
	return scriptOther
}

// ContentTerms returns the distinct content terms of a Japanese text in
// text order: maximal runs of kanji, of katakana (with ー) or of Latin
// letters and digits, at least 2 runes long (3 for Latin runs, which must
// hold a letter). Hiragana, punctuation and symbols separate terms: in
// Japanese they carry the grammar, kanji and katakana carry most content
// words. No tokenizer or dictionary is used, so the procedure does not
// depend on the one being evaluated.
func ContentTerms(s string) []string {
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := scriptOf(rs[i])
		j := i + 1
		for j < len(rs) && scriptOf(rs[j]) == c {
			j++
		}
		w := string(rs[i:j])
		ok := c != scriptOther && j-i >= 2
		if c == scriptLatin {
			ok = j-i >= 3 && strings.IndexFunc(w, unicode.IsLetter) >= 0
		}
		if ok && !slices.Contains(out, w) {
			out = append(out, w)
		}
		i = j
	}
	return out
}

func isLatinOrDigit(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return scriptOf(r) == scriptLatin
}

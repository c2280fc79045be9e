package datasets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/questions"
)

// LoCoMo's names and constants.
const (
	LoCoMoName = "locomo"
	// LoCoMoDateLayout is the layout of session_N_date_time ("1:56 pm on 8 May, 2023").
	LoCoMoDateLayout = "3:04 pm on 2 January, 2006"
	// LoCoMoTurnStep is the time between consecutive turns of a session:
	// turn i (0-based) is at the session's date-time + i × LoCoMoTurnStep.
	LoCoMoTurnStep = time.Minute
	// AdversarialType is the type of LoCoMo's no-answer questions in
	// noanswer.jsonl.
	AdversarialType = "adversarial"
)

// CategoryStats describes one LoCoMo category from the data: how many
// questions, how much evidence, how many sessions the evidence spans, how
// the questions are worded, and the type derived from these (see
// DeriveCategoryType).
type CategoryStats struct {
	Category     int            `json:"category"`
	Questions    int            `json:"questions"`
	MeanEvidence float64        `json:"mean_evidence_turns"`
	MeanSessions float64        `json:"mean_sessions_spanned"`
	MultiSession float64        `json:"share_multi_session"`
	WhenWhoWhere float64        `json:"share_when_who_where"`
	Adversarial  float64        `json:"share_with_adversarial_answer"`
	FirstWords   map[string]int `json:"first_words"` // lower-cased first word → questions (the five most frequent)
	DerivedType  string         `json:"derived_type"`
}

// DeriveCategoryType maps a category to the paper's question types from its
// statistics, in this order: more than half of its questions carry an
// adversarial_answer → AdversarialType (no-answer set); more than half have
// evidence in two or more sessions → aggregate; more than half begin with
// "when", "who" or "where" (a single value asked for: a date, a person, a
// place) → named_entity; otherwise contextual.
func DeriveCategoryType(s CategoryStats) string {
	switch {
	case s.Adversarial > 0.5:
		return AdversarialType
	case s.MultiSession > 0.5:
		return questions.Aggregate
	case s.WhenWhoWhere > 0.5:
		return questions.NamedEntity
	default:
		return questions.Contextual
	}
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

type locomoQA struct {
	Question          string          `json:"question"`
	Answer            json.RawMessage `json:"answer"`
	AdversarialAnswer json.RawMessage `json:"adversarial_answer"`
	Evidence          []string        `json:"evidence"`
	Category          int             `json:"category"`
}

type locomoSample struct {
	SampleID       string                     `json:"sample_id"`
	Conversation   map[string]json.RawMessage `json:"conversation"`
	SessionSummary map[string]string          `json:"session_summary"`
	QA             []locomoQA                 `json:"qa"`
}

var (
	sessionKey = regexp.MustCompile(`^session_([0-9]+)$`)
	diaIDShape = regexp.MustCompile(`^D:?([0-9]+):([0-9]+)$`)
)

// ReadLoCoMo converts locomo10.json (see the package doc for every rule).
func ReadLoCoMo(path string) (*Folder, []string, error) {
	data, orig, err := hashOriginal(path)
	if err != nil {
		return nil, nil, err
	}
	name := orig.File
	if err := checkUTF8(name, data); err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, nil, inputerr.At(name, 1, "a JSON array of LoCoMo samples")
	}
	f := &Folder{Info: Info{Dataset: LoCoMoName, Converter: "lib/datasets.ReadLoCoMo", ConverterVersion: ConverterVersion, Originals: []Original{orig}}}
	summaries := map[string]map[string]string{} // source → session → summary
	type pendingQ struct {
		qa   locomoQA
		qid  string
		user string
		src  string
		sess map[string]bool
		refs []string
		line int
	}
	var pending []pendingQ
	userNames := newNameClaims(name)
	unresolvedIDs := 0
	speakers := 0
	imageTurns := 0
	closeSessions := 0
	emptySessions := 0
	for dec.More() {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, inputerr.At(name, lineAt(data, decodeErrorOffset(data, start, err)), "a LoCoMo sample object: "+err.Error())
		}
		start = dec.InputOffset() - int64(len(raw)) // the sample's '{': Decode skips the comma and white space before it
		ix, err := indexValues(data, start, raw)
		if err != nil {
			var dup *duplicateKeyError
			if errors.As(err, &dup) {
				return nil, nil, inputerr.Atf(name, lineAt(data, dup.Offset), "each key once in an object, got %q again", dup.Key)
			}
			return nil, nil, inputerr.At(name, lineAt(data, start), "a LoCoMo sample object: "+err.Error())
		}
		at := ix.line
		var s locomoSample
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, nil, inputerr.At(name, typeErrorLine(data, start, err), "a LoCoMo sample {sample_id, conversation, session_summary, qa}: "+err.Error())
		}
		if err := checkID(name, at("sample_id"), "sample_id", s.SampleID); err != nil {
			return nil, nil, err
		}
		if slices.Contains(f.Info.Users, s.SampleID) {
			return nil, nil, inputerr.Atf(name, at("sample_id"), "a unique sample_id, got %q again", s.SampleID)
		}
		if err := userNames.claim(safeName(s.SampleID), s.SampleID, at("sample_id")); err != nil {
			return nil, nil, err
		}
		var a, b string
		if err := json.Unmarshal(s.Conversation["speaker_a"], &a); err != nil || a == "" {
			return nil, nil, inputerr.At(name, at("conversation", "speaker_a"), "conversation.speaker_a, a non-empty string")
		}
		if err := json.Unmarshal(s.Conversation["speaker_b"], &b); err != nil || b == "" {
			return nil, nil, inputerr.At(name, at("conversation", "speaker_b"), "conversation.speaker_b, a non-empty string")
		}
		if a == b {
			return nil, nil, inputerr.Atf(name, at("conversation", "speaker_b"), "conversation.speaker_b other than speaker_a, got %q for both", a)
		}
		speakers += 2
		var nums []int
		for k := range s.Conversation {
			if m := sessionKey.FindStringSubmatch(k); m != nil {
				n, _ := strconv.Atoi(m[1])
				nums = append(nums, n)
			}
		}
		slices.Sort(nums)
		src := Source{Name: s.SampleID + ".json", Users: []string{s.SampleID}}
		keys := map[string]string{} // dia_id → session
		var prevEnd time.Time
		for _, n := range nums {
			key := fmt.Sprintf("session_%d", n)
			var turns []locomoTurn
			if err := json.Unmarshal(s.Conversation[key], &turns); err != nil {
				return nil, nil, inputerr.Atf(name, typeErrorLine(data, ix.at["/conversation/"+key], err), "conversation.%s, an array of turns {speaker, dia_id, text}: %v", key, err)
			}
			if len(turns) == 0 {
				emptySessions++
				continue
			}
			var when string
			dtKey := key + "_date_time"
			if err := json.Unmarshal(s.Conversation[dtKey], &when); err != nil {
				return nil, nil, inputerr.Atf(name, at("conversation", dtKey), "conversation.%s, a string like \"1:56 pm on 8 May, 2023\"", dtKey)
			}
			t0, err := time.Parse(LoCoMoDateLayout, strings.TrimSpace(when))
			if err != nil {
				return nil, nil, inputerr.Atf(name, at("conversation", dtKey), "conversation.%s like \"1:56 pm on 8 May, 2023\", got %q", dtKey, when)
			}
			if !prevEnd.IsZero() && !chunking.NewSession(prevEnd, t0, chunking.DefaultGapMinutes) {
				closeSessions++
			}
			for i, t := range turns {
				if t.Speaker != a && t.Speaker != b {
					return nil, nil, inputerr.Atf(name, at("conversation", key, i, "speaker"), "turn %s's speaker to be %q or %q, got %q", t.DiaID, a, b, t.Speaker)
				}
				m := diaIDShape.FindStringSubmatch(t.DiaID)
				if sn, _ := strconv.Atoi(firstGroup(m)); m == nil || sn != n {
					return nil, nil, inputerr.Atf(name, at("conversation", key, i, "dia_id"), "a dia_id D%d:<turn> in %s, got %q", n, key, t.DiaID)
				}
				if first, dup := keys[normalDiaID(t.DiaID)]; dup {
					return nil, nil, inputerr.Atf(name, at("conversation", key, i, "dia_id"), "a unique dia_id in %s, got %q, which is %s again (first in %s)", key, t.DiaID, normalDiaID(t.DiaID), first)
				}
				keys[normalDiaID(t.DiaID)] = key
				text := t.Text
				if t.BlipCaption != "" {
					imageTurns++
					text = strings.TrimSpace(text + " [image: " + t.BlipCaption + "]")
				}
				src.Turns = append(src.Turns, Turn{At: t0.Add(time.Duration(i) * LoCoMoTurnStep), Sender: t.Speaker, Text: text, Key: normalDiaID(t.DiaID), Session: key})
				prevEnd = t0.Add(time.Duration(i) * LoCoMoTurnStep)
			}
		}
		slices.SortStableFunc(src.Turns, func(x, y Turn) int { return x.At.Compare(y.At) })
		sums := map[string]string{}
		for _, n := range nums {
			if v := s.SessionSummary[fmt.Sprintf("session_%d_summary", n)]; v != "" {
				sums[fmt.Sprintf("session_%d", n)] = v
			}
		}
		summaries[src.Name] = sums
		f.Sources = append(f.Sources, src)
		f.Info.Users = append(f.Info.Users, s.SampleID)
		for i, qa := range s.QA {
			p := pendingQ{qa: qa, qid: fmt.Sprintf("%s-q%03d", s.SampleID, i+1), user: s.SampleID, src: src.Name, sess: map[string]bool{}, line: at("qa", i, "category")}
			if qa.Question == "" {
				return nil, nil, inputerr.Atf(name, at("qa", i, "question"), "a non-empty question in qa item %d of %s", i+1, s.SampleID)
			}
			if qa.Category < 1 || qa.Category > 5 {
				return nil, nil, inputerr.Atf(name, p.line, "a category 1–5 in qa item %d of %s, got %d", i+1, s.SampleID, qa.Category)
			}
			f.Native = append(f.Native, NativeQuestion{QID: p.qid, User: p.user, Category: qa.Category, Question: qa.Question, Evidence: slices.Clone(qa.Evidence)})
			for _, ev := range qa.Evidence {
				for _, id := range strings.FieldsFunc(ev, func(r rune) bool { return r == ';' || r == ',' || r == ' ' }) {
					if !diaIDShape.MatchString(id) {
						unresolvedIDs++
						continue
					}
					norm := normalDiaID(id)
					sess, ok := keys[norm]
					if !ok {
						unresolvedIDs++
						continue
					}
					if !slices.Contains(p.refs, norm) {
						p.refs = append(p.refs, norm)
					}
					p.sess[sess] = true
				}
			}
			pending = append(pending, p)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, inputerr.At(name, lineAt(data, dec.InputOffset()), "the end of the sample array: "+err.Error())
	}
	if err := checkTrailing(name, data, dec.InputOffset()); err != nil {
		return nil, nil, err
	}
	if len(f.Sources) == 0 {
		return nil, nil, inputerr.At(name, 1, "at least one LoCoMo sample")
	}
	stats := map[int]*CategoryStats{}
	words := map[int]map[string]int{}
	for _, p := range pending {
		c := p.qa.Category
		if stats[c] == nil {
			stats[c], words[c] = &CategoryStats{Category: c}, map[string]int{}
		}
		st := stats[c]
		st.Questions++
		st.MeanEvidence += float64(len(p.refs))
		st.MeanSessions += float64(len(p.sess))
		if len(p.sess) > 1 {
			st.MultiSession++
		}
		w := strings.ToLower(firstWord(p.qa.Question))
		words[c][w]++
		if w == "when" || w == "who" || w == "where" {
			st.WhenWhoWhere++
		}
		if len(p.qa.AdversarialAnswer) > 0 && string(p.qa.AdversarialAnswer) != "null" {
			st.Adversarial++
		}
	}
	var table []CategoryStats
	typeOf := map[int]string{}
	for c := 1; c <= 5; c++ {
		st := stats[c]
		if st == nil {
			continue
		}
		n := float64(st.Questions)
		st.MeanEvidence, st.MeanSessions, st.MultiSession, st.WhenWhoWhere, st.Adversarial = st.MeanEvidence/n, st.MeanSessions/n, st.MultiSession/n, st.WhenWhoWhere/n, st.Adversarial/n
		st.FirstWords = topWords(words[c], 5)
		st.DerivedType = DeriveCategoryType(*st)
		typeOf[c] = st.DerivedType
		table = append(table, *st)
	}
	var noAnswerUser []string
	for _, p := range pending {
		typ := typeOf[p.qa.Category]
		q := questions.Question{QID: p.qid, Question: p.qa.Question, Type: typ, Answer: answerText(p.qa.Answer)}
		if typ == AdversarialType {
			q.Answer = ""
			f.NoAnswer = append(f.NoAnswer, q)
			noAnswerUser = append(noAnswerUser, p.user)
			continue
		}
		if len(p.refs) == 0 {
			f.Info.Dropped = append(f.Info.Dropped, Dropped{p.qid, "no evidence dia_id names a turn of the conversation"})
			continue
		}
		fq := Question{Question: q, User: p.user}
		for _, r := range p.refs {
			fq.Evidence = append(fq.Evidence, Ref{Source: p.src, Key: r, Role: gold.RoleAnswer})
		}
		f.Questions = append(f.Questions, fq)
	}
	f.SessionSummary = func(source string, t Turn) string { return summaries[source][t.Session] }
	f.Info.Notes = map[string]any{
		"categories":                          table,
		"speakers":                            speakers,
		"image_turns_with_caption":            imageTurns,
		"sessions_without_turns":              emptySessions,
		"sessions_within_180_min_of_previous": closeSessions,
		"evidence_ids_unresolved":             unresolvedIDs,
		"turn_step_seconds":                   int(LoCoMoTurnStep / time.Second),
		"summaries":                           "session-level, written by the data set's authors; a chunk gets the summary of the session of its first message",
	}
	return f, noAnswerUser, nil
}

// normalDiaID writes a dia_id as D<session>:<turn> without leading zeros
// or a stray colon after the D; other shapes are returned unchanged.
func normalDiaID(id string) string {
	m := diaIDShape.FindStringSubmatch(id)
	if m == nil {
		return id
	}
	sn, _ := strconv.Atoi(m[1])
	tn, _ := strconv.Atoi(m[2])
	return fmt.Sprintf("D%d:%d", sn, tn)
}

func firstWord(s string) string {
	fs := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\'' || r == '?' || r == ',' })
	if len(fs) == 0 {
		return ""
	}
	return fs[0]
}

// topWords keeps the n most frequent words (ties: alphabetical).
func topWords(m map[string]int, n int) map[string]int {
	type kv struct {
		k string
		v int
	}
	var all []kv
	for k, v := range m {
		all = append(all, kv{k, v})
	}
	slices.SortFunc(all, func(a, b kv) int {
		if a.v != b.v {
			return b.v - a.v
		}
		return strings.Compare(a.k, b.k)
	})
	out := map[string]int{}
	for i := 0; i < n && i < len(all); i++ {
		out[all[i].k] = all[i].v
	}
	return out
}

// answerText renders a LoCoMo answer: a string as is, a number as its JSON
// literal, null or missing as "".
func answerText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// firstGroup is a regexp match's first group, "" without a match.
func firstGroup(m []string) string {
	if len(m) < 2 {
		return ""
	}
	return m[1]
}

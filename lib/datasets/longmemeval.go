package datasets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/questions"
)

// LongMemEval's names and constants.
const (
	LongMemEvalName = "longmemeval"
	// LongMemEvalDateLayout is the layout of haystack_dates ("2023/05/20 (Sat) 02:21").
	LongMemEvalDateLayout = "2006/01/02 (Mon) 15:04"
	// LongMemEvalTurnStep is the time between consecutive turns of a
	// session, from the session's date.
	LongMemEvalTurnStep = time.Minute
	// AbstentionType is the type of LongMemEval's `_abs` questions in
	// noanswer.jsonl.
	AbstentionType = "abstention"
	// AbstentionSuffix marks an abstention question's ID.
	AbstentionSuffix = "_abs"
)

// LongMemEvalTypes maps LongMemEval's question_type to the paper's types:
// questions answered by one fact of one session are named_entity (user and
// assistant facts) or contextual (preferences, updated knowledge, reasoning
// over dates); multi-session questions are aggregate.
var LongMemEvalTypes = map[string]string{
	"single-session-user":       questions.NamedEntity,
	"single-session-assistant":  questions.NamedEntity,
	"single-session-preference": questions.Contextual,
	"knowledge-update":          questions.Contextual,
	"temporal-reasoning":        questions.Contextual,
	"multi-session":             questions.Aggregate,
}

type lmeTurn struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	HasAnswer bool   `json:"has_answer"`
}

type lmeQuestion struct {
	QuestionID         string          `json:"question_id"`
	QuestionType       string          `json:"question_type"`
	Question           string          `json:"question"`
	Answer             json.RawMessage `json:"answer"`
	HaystackSessionIDs []string        `json:"haystack_session_ids"`
	HaystackDates      []string        `json:"haystack_dates"`
	HaystackSessions   [][]lmeTurn     `json:"haystack_sessions"`
	AnswerSessionIDs   []string        `json:"answer_session_ids"`
}

// ReadLongMemEval converts longmemeval_{s,m,oracle}.json (see the package
// doc). Every question's haystack goes into one pooled corpus, one source
// per haystack session (a session shared by several haystacks is written
// once); the user of a question is the question itself, so --per-user gives
// the benchmark's own setting, one haystack per folder.
func ReadLongMemEval(path string) (*Folder, []string, error) {
	data, orig, err := hashOriginal(path)
	if err != nil {
		return nil, nil, err
	}
	name := orig.File
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, nil, inputerr.At(name, 1, "a JSON array of LongMemEval questions")
	}
	f := &Folder{Info: Info{Dataset: LongMemEvalName, Converter: "lib/datasets.ReadLongMemEval", ConverterVersion: ConverterVersion, Originals: []Original{orig}}}
	bySession := map[string]int{} // session ID → index in f.Sources
	var noAnswerUser []string
	seen := map[string]bool{}
	fallback := 0
	for dec.More() {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, inputerr.At(name, lineAt(data, start), "a LongMemEval question object: "+err.Error())
		}
		start += int64(bytes.IndexByte(raw, '{'))
		line := lineAt(data, start)
		var q lmeQuestion
		if err := json.Unmarshal(raw, &q); err != nil {
			return nil, nil, inputerr.At(name, line, "a question {question_id, question_type, question, answer, haystack_session_ids, haystack_dates, haystack_sessions, answer_session_ids}: "+err.Error())
		}
		if q.QuestionID == "" || q.Question == "" {
			return nil, nil, inputerr.At(name, line, "a non-empty question_id and question")
		}
		if seen[q.QuestionID] {
			return nil, nil, inputerr.Atf(name, line, "a unique question_id, got %q again", q.QuestionID)
		}
		seen[q.QuestionID] = true
		typ, ok := LongMemEvalTypes[q.QuestionType]
		if !ok {
			var known []string
			for k := range LongMemEvalTypes {
				known = append(known, k)
			}
			slices.Sort(known)
			return nil, nil, inputerr.Atf(name, line, "question_type one of %s, got %q", strings.Join(known, ", "), q.QuestionType)
		}
		if len(q.HaystackSessionIDs) != len(q.HaystackSessions) || len(q.HaystackDates) != len(q.HaystackSessions) {
			return nil, nil, inputerr.Atf(name, line, "haystack_session_ids, haystack_dates and haystack_sessions of one length, got %d, %d and %d",
				len(q.HaystackSessionIDs), len(q.HaystackDates), len(q.HaystackSessions))
		}
		user := q.QuestionID
		f.Info.Users = append(f.Info.Users, user)
		answerSession := map[string]bool{}
		for _, id := range q.AnswerSessionIDs {
			answerSession[id] = true
		}
		var refs []Ref
		var whole []Ref // every turn of the answer sessions
		for i, sid := range q.HaystackSessionIDs {
			if sid == "" {
				return nil, nil, inputerr.Atf(name, line, "a non-empty haystack_session_ids[%d]", i)
			}
			t0, err := time.Parse(LongMemEvalDateLayout, strings.TrimSpace(q.HaystackDates[i]))
			if err != nil {
				return nil, nil, inputerr.Atf(name, line, "haystack_dates[%d] like \"2023/05/20 (Sat) 02:21\", got %q", i, q.HaystackDates[i])
			}
			sname := "session-" + safeName(sid) + ".json"
			si, known := bySession[sid]
			if !known {
				src := Source{Name: sname}
				for j, t := range q.HaystackSessions[i] {
					if t.Role != "user" && t.Role != "assistant" {
						return nil, nil, inputerr.Atf(name, line, "turn %d of session %s with role user or assistant, got %q", j, sid, t.Role)
					}
					src.Turns = append(src.Turns, Turn{At: t0.Add(time.Duration(j) * LongMemEvalTurnStep), Sender: t.Role, Text: t.Content, Key: strconv.Itoa(j), Session: sid})
				}
				si = len(f.Sources)
				bySession[sid] = si
				f.Sources = append(f.Sources, src)
			} else if len(f.Sources[si].Turns) != len(q.HaystackSessions[i]) {
				return nil, nil, inputerr.Atf(name, line, "session %s with the %d turns it has in an earlier haystack, got %d", sid, len(f.Sources[si].Turns), len(q.HaystackSessions[i]))
			}
			if !slices.Contains(f.Sources[si].Users, user) {
				f.Sources[si].Users = append(f.Sources[si].Users, user)
			}
			if !answerSession[sid] {
				continue
			}
			for j, t := range q.HaystackSessions[i] {
				r := Ref{Source: f.Sources[si].Name, Key: strconv.Itoa(j), Role: gold.RoleAnswer}
				whole = append(whole, r)
				if t.HasAnswer {
					refs = append(refs, r)
				}
			}
		}
		qq := questions.Question{QID: q.QuestionID, Question: q.Question, Type: typ, Answer: answerText(q.Answer)}
		if strings.HasSuffix(q.QuestionID, AbstentionSuffix) {
			qq.Type, qq.Answer = AbstentionType, ""
			f.NoAnswer = append(f.NoAnswer, qq)
			noAnswerUser = append(noAnswerUser, user)
			continue
		}
		if len(refs) == 0 {
			refs = whole
			if len(whole) > 0 {
				fallback++
			}
		}
		if len(refs) == 0 {
			f.Info.Dropped = append(f.Info.Dropped, Dropped{q.QuestionID, "no answer session in its haystack"})
			continue
		}
		f.Questions = append(f.Questions, Question{Question: qq, User: user, Evidence: refs})
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, inputerr.At(name, lineAt(data, dec.InputOffset()), "the end of the question array: "+err.Error())
	}
	slices.SortStableFunc(f.Sources, func(a, b Source) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(f.Sources); i++ {
		if f.Sources[i].Name == f.Sources[i-1].Name {
			return nil, nil, fmt.Errorf("datasets: %s: sessions %s and %s share the file name %s", name, f.Sources[i-1].Turns[0].Session, f.Sources[i].Turns[0].Session, f.Sources[i].Name)
		}
	}
	f.Info.Notes = map[string]any{
		"type_map":                          LongMemEvalTypes,
		"questions_gold_from_whole_session": fallback,
		"summaries":                         "none in the data set: lead summaries (the chunk's first messages, 200-500 characters), not summaries",
	}
	return f, noAnswerUser, nil
}

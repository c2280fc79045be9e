package datasets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/questions"
)

// LongMemEval's names and constants.
const (
	LongMemEvalName = "longmemeval"
	// LongMemEvalURL is where the LongMemEval files (longmemeval_s_cleaned.json,
	// _m_ and _oracle) are published; Fetch does not download them.
	LongMemEvalURL = "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned"
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

// ReadLongMemEval converts longmemeval_{s,m,oracle}(_cleaned).json into
// LongMemEval's own retrieval setting (see the package doc): one source per
// haystack session holding its user turns only, chunked one document per
// session (Info.Chunking = chunking.SessionOptions: no window, no render
// limit, so no turn is lost however long the session), gold from the
// has_answer user turns of the answer sessions, questions without such a turn
// skipped as LongMemEval's run_retrieval.py skips them, and `_abs` questions
// the no-answer set. A session shared by several haystacks is written once
// and must have the same date and turns in each. The user of a question is
// the question itself, so --per-user gives the benchmark's own setting, one
// haystack per folder.
func ReadLongMemEval(path string) (*Folder, []string, error) {
	data, orig, err := hashOriginal(path)
	if err != nil {
		return nil, nil, err
	}
	name := orig.File
	if bad := inputerr.InvalidUTF8(data); bad >= 0 {
		return nil, nil, inputerr.At(name, lineAt(data, int64(bad)), "UTF-8 text (an invalid byte sequence here)")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, nil, inputerr.At(name, 1, "a JSON array of LongMemEval questions")
	}
	lines := &lineCounter{data: data, line: 1}
	units := chunking.SessionOptions()
	f := &Folder{Info: Info{Dataset: LongMemEvalName, Converter: "lib/datasets.ReadLongMemEval", ConverterVersion: ConverterVersion,
		Originals: []Original{orig}, Chunking: &units}}
	sessions := map[string]*lmeSession{} // session ID → its first reading
	fileOf := map[string]string{}        // file name → session ID
	var noAnswerUser []string
	seen := map[string]bool{}
	withoutUserTurns := 0
	for dec.More() {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, inputerr.At(name, lineAt(data, decodeErrorOffset(data, start, err)), "a LongMemEval question object: "+err.Error())
		}
		start += int64(bytes.IndexByte(data[start:], '{'))
		line := lines.at(start)
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
		target := false // some user turn of the haystack has has_answer
		inHaystack := map[string]bool{}
		for i, sid := range q.HaystackSessionIDs {
			if sid == "" {
				return nil, nil, inputerr.Atf(name, line, "a non-empty haystack_session_ids[%d]", i)
			}
			t0, err := time.Parse(LongMemEvalDateLayout, strings.TrimSpace(q.HaystackDates[i]))
			if err != nil {
				return nil, nil, inputerr.Atf(name, line, "haystack_dates[%d] like \"2023/05/20 (Sat) 02:21\", got %q", i, q.HaystackDates[i])
			}
			for j, t := range q.HaystackSessions[i] {
				if t.Role != "user" && t.Role != "assistant" {
					return nil, nil, inputerr.Atf(name, line, "turn %d of session %s with role user or assistant, got %q", j, sid, t.Role)
				}
				target = target || (t.Role == "user" && t.HasAnswer)
			}
			ss, known := sessions[sid]
			if !known {
				fname := "session-" + safeName(sid) + ".json"
				if other, taken := fileOf[fname]; taken {
					return nil, nil, inputerr.Atf(name, line, "session IDs that map to distinct file names, got %q and %q both as %s", other, sid, fname)
				}
				fileOf[fname] = sid
				ss = &lmeSession{line: line, date: t0, turns: q.HaystackSessions[i], source: -1}
				sessions[sid] = ss
				src := Source{Name: fname}
				for j, t := range q.HaystackSessions[i] {
					if t.Role == "user" {
						src.Turns = append(src.Turns, Turn{At: t0.Add(time.Duration(j) * LongMemEvalTurnStep), Sender: t.Role, Text: t.Content, Key: LongMemEvalTurnID(sid, j), Session: sid})
					}
				}
				if len(src.Turns) == 0 {
					withoutUserTurns++
				} else {
					ss.source = len(f.Sources)
					f.Sources = append(f.Sources, src)
				}
			} else if err := ss.same(t0, q.HaystackSessions[i]); err != nil {
				return nil, nil, inputerr.Atf(name, line, "session %s as at line %d (a session shared by haystacks has one text): %v", sid, ss.line, err)
			}
			if ss.source < 0 || inHaystack[sid] {
				continue // no document, or one this haystack already holds
			}
			inHaystack[sid] = true
			src := &f.Sources[ss.source]
			if !slices.Contains(src.Users, user) {
				src.Users = append(src.Users, user)
			}
			if !answerSession[sid] {
				continue
			}
			for j, t := range q.HaystackSessions[i] {
				if t.Role == "user" && t.HasAnswer {
					refs = append(refs, Ref{Source: src.Name, Key: LongMemEvalTurnID(sid, j), Role: gold.RoleAnswer})
				}
			}
		}
		qq := questions.Question{QID: q.QuestionID, Question: q.Question, Type: typ, Answer: answerText(q.Answer)}
		if strings.Contains(q.QuestionID, AbstentionSuffix) {
			qq.Type, qq.Answer = AbstentionType, ""
			f.NoAnswer = append(f.NoAnswer, qq)
			noAnswerUser = append(noAnswerUser, user)
			continue
		}
		switch {
		case !target:
			f.Info.Dropped = append(f.Info.Dropped, Dropped{q.QuestionID, "no user turn with has_answer in its haystack (LongMemEval skips it)"})
		case len(refs) == 0:
			f.Info.Dropped = append(f.Info.Dropped, Dropped{q.QuestionID, "no user turn with has_answer in its answer sessions"})
		default:
			f.Questions = append(f.Questions, Question{Question: qq, User: user, Evidence: refs})
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, inputerr.At(name, lineAt(data, dec.InputOffset()), "the end of the question array: "+err.Error())
	}
	if rest := dec.InputOffset(); len(bytes.TrimSpace(data[rest:])) > 0 {
		return nil, nil, inputerr.At(name, lineAt(data, rest+int64(len(data[rest:])-len(bytes.TrimLeft(data[rest:], " \t\r\n")))), "nothing after the question array")
	}
	slices.SortStableFunc(f.Sources, func(a, b Source) int { return strings.Compare(a.Name, b.Name) })
	f.Info.Notes = map[string]any{
		"type_map":                    LongMemEvalTypes,
		"unit":                        "session: one document per haystack session, its user turns only (LongMemEval's session granularity)",
		"sessions_without_user_turns": withoutUserTurns,
		"summaries":                   "none in the data set: lead summaries (the session's first user turns, 200-500 characters), not summaries",
	}
	return f, noAnswerUser, nil
}

// LongMemEvalTurnID is LongMemEval's ID of turn j (0-based, counting both
// roles) of session sid: "sid_(j+1)", as its run_retrieval.py names turns.
func LongMemEvalTurnID(sid string, j int) string { return sid + "_" + strconv.Itoa(j+1) }

// lmeSession is a haystack session as first read, for comparing its later
// readings.
type lmeSession struct {
	line   int
	date   time.Time
	turns  []lmeTurn
	source int // index in Folder.Sources; -1 for a session without user turns
}

// same reports how a later reading of the session differs from the first:
// its date, its number of turns, or a turn's role or content.
func (s *lmeSession) same(date time.Time, turns []lmeTurn) error {
	if !date.Equal(s.date) {
		return fmt.Errorf("dated %s there, %s here", s.date.Format(LongMemEvalDateLayout), date.Format(LongMemEvalDateLayout))
	}
	if len(turns) != len(s.turns) {
		return fmt.Errorf("%d turns there, %d here", len(s.turns), len(turns))
	}
	for j, t := range turns {
		if t.Role != s.turns[j].Role || t.Content != s.turns[j].Content {
			return fmt.Errorf("turn %d differs in role or text", j)
		}
	}
	return nil
}

// lineCounter gives the line of increasing offsets of data, counting each
// newline once (longmemeval_m is gigabytes long: lineAt from the start for
// every question would rescan it 500 times).
type lineCounter struct {
	data []byte
	off  int64
	line int
}

// at returns the 1-based line of off; an offset below the previous call's
// is counted from the start.
func (c *lineCounter) at(off int64) int {
	off = max(0, min(off, int64(len(c.data))))
	if off < c.off {
		return lineAt(c.data, off)
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
}

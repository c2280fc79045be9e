package datasets_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/lineexport"
)

// lmeSession is one haystack session in LongMemEval's schema, for tests.
func lmeSession(turns ...string) string {
	var parts []string
	for i, t := range turns {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		parts = append(parts, `{"role": "`+role+`", "content": "`+t+`"}`)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// lmeQuestion is one question line in LongMemEval's schema.
func lmeQuestion(qid string, sessionIDs []string, sessions []string, answer []string) string {
	dates := make([]string, len(sessionIDs))
	for i := range dates {
		dates[i] = `"2023/05/20 (Sat) 02:21"`
	}
	return `{"question_id": "` + qid + `", "question_type": "single-session-user", "question": "What?", "answer": "x",` +
		` "haystack_session_ids": ["` + strings.Join(sessionIDs, `", "`) + `"], "haystack_dates": [` + strings.Join(dates, ", ") + `],` +
		` "haystack_sessions": [` + strings.Join(sessions, ", ") + `], "answer_session_ids": ["` + strings.Join(answer, `", "`) + `"]}`
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLongMemEvalKeepsLongSessions: the answer session of lme_long has 12
// turns and 10,762 characters (its 6 user turns alone 5,482, over the
// 5,000-character render limit of the paper's chunks). LongMemEval's setting
// keeps every user turn of it in one chunk, keeps its question with that
// chunk as gold, and leaves no message outside a chunk; the 8-turn session
// with 5,600 characters of user text stays whole too.
func TestLongMemEvalKeepsLongSessions(t *testing.T) {
	const file = "testdata/longmemeval_long.json"
	f, _, err := datasets.ReadLongMemEval(file)
	if err != nil {
		t.Fatal(err)
	}
	b := build(t, f)
	if b.Info.MessagesInNoChunk != 0 || b.Info.Messages != 6+4+1 || len(b.Chunks) != 3 {
		t.Errorf("%d messages (%d in no chunk), %d chunks; want 11 user turns, none lost, one chunk per session", b.Info.Messages, b.Info.MessagesInNoChunk, len(b.Chunks))
	}
	const answer = "session-answer_long_1.json"
	res, err := lineexport.ReadJSON(answer, strings.NewReader(string(b.Files["sources/"+answer])))
	if err != nil {
		t.Fatal(err)
	}
	chars := 0
	for _, m := range res.Messages {
		chars += utf8.RuneCountInString(m.Text)
		if m.Sender != "user" {
			t.Errorf("%s holds a %s turn; LongMemEval indexes user turns only", answer, m.Sender)
		}
	}
	if len(res.Messages) != 6 || chars != 5482 {
		t.Errorf("%s: %d user turns, %d characters; want all 6, 5,482", answer, len(res.Messages), chars)
	}
	var gold chat.Chunk
	for _, c := range b.Chunks {
		if c.Source == answer {
			gold = c
		}
	}
	if len(gold.MessageIDs) != 6 || utf8.RuneCountInString(chunkText(b, gold)) <= 5000 {
		t.Errorf("the answer session's chunk holds %d of 6 user turns, %d characters", len(gold.MessageIDs), utf8.RuneCountInString(chunkText(b, gold)))
	}
	checkLines(t, b, datafolder.QuestionsFile, []string{`{"qid":"lme_long","question":"What did I plant next to the fence?","type":"named_entity","answer":"a blue hydrangea"}`})
	checkLines(t, b, datafolder.QrelsFile, []string{"lme_long 0 " + gold.ID + " 2"})
	if b.Info.Chunking == nil || !b.Info.Chunking.Sessions {
		t.Errorf("dataset.json chunking = %+v, want the session unit", b.Info.Chunking)
	}
}

// chunkText is the text of a chunk's messages, read back from the folder's
// sources.
func chunkText(b *datasets.Built, c chat.Chunk) string {
	res, err := lineexport.ReadJSON(c.Source, strings.NewReader(string(b.Files["sources/"+c.Source])))
	if err != nil {
		return ""
	}
	var sb strings.Builder
	for _, m := range res.Messages {
		if slices.Contains(c.MessageIDs, m.ID) {
			sb.WriteString(m.Text)
		}
	}
	return sb.String()
}

// TestLongMemEvalDefects: each input made the reader panic or convert
// silently wrong before; each is now a clear error at FILE:LINE.
func TestLongMemEvalDefects(t *testing.T) {
	empty := lmeSession()
	for _, c := range []struct {
		name, content string
		line          int
		expected      string
	}{
		// Two session IDs that map to one file name, both without turns:
		// an index out of range panic.
		{"same file name", "[\n" + lmeQuestion("q1", []string{"a/b", "a_b"}, []string{empty, empty}, []string{"a/b"}) + "\n]", 2, `"a/b" and "a_b" both as session-a_b.json`},
		// A session shared by two haystacks with another text: converted
		// with the first text only.
		{"shared session differs", "[\n" + lmeQuestion("q1", []string{"s"}, []string{lmeSession("I like tea.")}, []string{"s"}) + ",\n" +
			lmeQuestion("q2", []string{"s"}, []string{lmeSession("I like coffee.")}, []string{"s"}) + "\n]", 3, "session s as at line 2"},
		{"shared session, another date", "[\n" + lmeQuestion("q1", []string{"s"}, []string{lmeSession("I like tea.")}, []string{"s"}) + ",\n" +
			strings.Replace(lmeQuestion("q2", []string{"s"}, []string{lmeSession("I like tea.")}, []string{"s"}), "2023/05/20", "2023/05/21", 1) + "\n]", 3, "dated 2023/05/20"},
		{"one session twice in a haystack, two texts", "[\n" + lmeQuestion("q1", []string{"s", "s"}, []string{lmeSession("a"), lmeSession("b")}, []string{"s"}) + "\n]", 2, "session s as at line 2"},
		// A doubled file converted its first copy only.
		{"data after the array", "[\n" + lmeQuestion("q1", []string{"s"}, []string{lmeSession("a")}, []string{"s"}) + "\n]\n[\n]\n", 4, "nothing after the question array"},
		// Invalid UTF-8 became U+FFFD.
		{"invalid UTF-8", "[\n" + lmeQuestion("q1", []string{"s"}, []string{lmeSession("a")}, []string{"s"}) + ",\n" +
			lmeQuestion("q2", []string{"t"}, []string{lmeSession("caf\xe9")}, []string{"t"}) + "\n]", 3, "UTF-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, "lme.json", c.content)
			_, _, err := datasets.ReadLongMemEval(path)
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Line != c.line || !strings.Contains(err.Error(), c.expected) {
				t.Errorf("error %v, want lme.json:%d naming %s", err, c.line, c.expected)
			}
		})
	}
}

// TestLongMemEvalSessionTwiceInAHaystack: a session listed twice with one
// text is one document and its gold counts once.
func TestLongMemEvalSessionTwiceInAHaystack(t *testing.T) {
	session := `[{"role": "user", "content": "I adopted a cat.", "has_answer": true}]`
	path := writeTemp(t, "lme.json", "[\n"+lmeQuestion("q1", []string{"s", "s"}, []string{session, session}, []string{"s"})+"\n]")
	f, _, err := datasets.ReadLongMemEval(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Sources) != 1 || len(f.Questions) != 1 || len(f.Questions[0].Evidence) != 1 {
		t.Errorf("%d sources, %d questions; want one document and one gold turn", len(f.Sources), len(f.Questions))
	}
}

// TestLongMemEvalPerUserSkipsAbstentionOnlyUsers: a user whose only question
// is an `_abs` one got a folder with an empty questions.jsonl, which the
// benchmark refused after writing part of its output. No folder is written
// for such a user; dataset.json names them.
func TestLongMemEvalPerUserSkipsAbstentionOnlyUsers(t *testing.T) {
	f, noAnswerUser, err := datasets.ReadLongMemEval("testdata/longmemeval_long.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b, err := f.Write(dir, true, noAnswerUser)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, datafolder.UsersDir))
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, e := range entries {
		users = append(users, e.Name())
		q, err := os.ReadFile(filepath.Join(dir, datafolder.UsersDir, e.Name(), datafolder.QuestionsFile))
		if err != nil || len(q) == 0 {
			t.Errorf("users/%s/%s: %d bytes, %v; want its questions", e.Name(), datafolder.QuestionsFile, len(q), err)
		}
	}
	if !slices.Equal(users, []string{"lme_long"}) || !slices.Equal(b.Info.UsersWithoutFolder, []string{"lme_long_abs"}) {
		t.Errorf("user folders %v, without folder %v; want [lme_long] and [lme_long_abs]", users, b.Info.UsersWithoutFolder)
	}
	pooled, err := os.ReadFile(filepath.Join(dir, datafolder.DatasetFile))
	if err != nil || !strings.Contains(string(pooled), `"users_without_folder": [`) {
		t.Errorf("dataset.json does not name the users without a folder (%v)", err)
	}
}

package datasets_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
)

// msg is a message as lineexport.ReadJSON reads it back from a converted
// source: type text, time to the second.
type msg struct {
	date, time, sender, text string
}

// ids returns the spec §6 message IDs of msgs in source order.
func ids(source string, msgs []msg) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = chat.MessageID(chat.Message{Source: source, SourceOrder: i, Date: m.date, Time: m.time, Sender: m.sender, Type: "text", Text: m.text})
	}
	return out
}

// exportLines is the expected JSON-by-date export of msgs: one date per line.
func exportLines(msgs []msg) string {
	var b strings.Builder
	b.WriteString("{\n")
	for i := 0; i < len(msgs); {
		j := i
		var parts []string
		for ; j < len(msgs) && msgs[j].date == msgs[i].date; j++ {
			text, _ := json.Marshal(msgs[j].text)
			parts = append(parts, `{"time":"`+msgs[j].time+`","sender":"`+msgs[j].sender+`","type":"text","text":`+string(text)+`}`)
		}
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`"` + msgs[i].date + `": [` + strings.Join(parts, ",") + `]`)
		i = j
	}
	b.WriteString("\n}\n")
	return b.String()
}

func build(t *testing.T, f *datasets.Folder) *datasets.Built {
	t.Helper()
	b, err := f.Build()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkLines(t *testing.T, b *datasets.Built, file string, want []string) {
	t.Helper()
	got := strings.Split(strings.TrimSuffix(string(b.Files[file]), "\n"), "\n")
	if len(want) == 0 {
		want = []string{""}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d lines, want %d:\n%s", file, len(got), len(want), b.Files[file])
		return
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s line %d:\n got %s\nwant %s", file, i+1, got[i], want[i])
		}
	}
}

func TestLoCoMo(t *testing.T) {
	f, noAnswerUser, err := datasets.ReadLoCoMo("testdata/locomo_small.json")
	if err != nil {
		t.Fatal(err)
	}
	b := build(t, f)
	// Turn i of a session is at its date-time + i minutes; the image turn
	// carries its caption.
	src := []msg{
		{"2023-05-08", "13:56:00", "Ann", "I joined a pottery class."},
		{"2023-05-08", "13:57:00", "Bob", "Nice! Look at my dog. [image: a photo of a dog]"},
		{"2023-06-27", "10:37:00", "Bob", "How is pottery going?"},
		{"2023-06-27", "10:38:00", "Ann", "I made a bowl last week."},
	}
	if got, want := string(b.Files["sources/conv-x.json"]), exportLines(src); got != want {
		t.Errorf("sources/conv-x.json:\n%s\nwant\n%s", got, want)
	}
	m := ids("conv-x.json", src)
	// The two sessions are 50 days apart: one chunk each.
	c0, c1 := chat.ChunkID("conv-x.json", 0, m[:2]), chat.ChunkID("conv-x.json", 1, m[2:])
	checkLines(t, b, datafolder.QuestionsFile, []string{
		`{"qid":"conv-x-q001","question":"What did Ann make over time in pottery?","type":"aggregate","answer":"a bowl"}`,
		`{"qid":"conv-x-q002","question":"When did Ann join a pottery class?","type":"named_entity","answer":"2023"}`,
		`{"qid":"conv-x-q003","question":"What animal did Bob show?","type":"contextual","answer":"a dog"}`,
	})
	checkLines(t, b, datafolder.NoAnswerFile, []string{`{"qid":"conv-x-q004","question":"What did Bob make?","type":"adversarial"}`})
	checkLines(t, b, datasets.KeysFile, []string{
		`{"message_id":"` + m[0] + `","key":"D1:1"}`, `{"message_id":"` + m[1] + `","key":"D1:2"}`,
		`{"message_id":"` + m[2] + `","key":"D2:1"}`, `{"message_id":"` + m[3] + `","key":"D2:2"}`,
	})
	// Every qa item as LoCoMo's own evaluation reads it: all categories,
	// the unresolved D9:9 included.
	checkLines(t, b, datasets.NativeFile, []string{
		`{"qid":"conv-x-q001","user":"conv-x","category":1,"question":"What did Ann make over time in pottery?","evidence":["D1:1","D2:2"]}`,
		`{"qid":"conv-x-q002","user":"conv-x","category":2,"question":"When did Ann join a pottery class?","evidence":["D1:1"]}`,
		`{"qid":"conv-x-q003","user":"conv-x","category":4,"question":"What animal did Bob show?","evidence":["D1:2"]}`,
		`{"qid":"conv-x-q004","user":"conv-x","category":5,"question":"What did Bob make?","evidence":["D2:2"]}`,
		`{"qid":"conv-x-q005","user":"conv-x","category":4,"question":"What did Ann say about clay?","evidence":["D9:9"]}`,
	})
	want := []string{
		"conv-x-q001 0 " + c0 + " 2", "conv-x-q001 0 " + c1 + " 2",
		"conv-x-q002 0 " + c0 + " 2",
		"conv-x-q003 0 " + c0 + " 2",
	}
	if c1 < c0 {
		want[0], want[1] = want[1], want[0]
	}
	checkLines(t, b, datafolder.QrelsFile, want)
	checkLines(t, b, datafolder.SummariesFile, []string{
		`{"chunk_id":"` + c0 + `","summary":"Ann and Bob talked about a pottery class and a dog."}`,
		`{"chunk_id":"` + c1 + `","summary":"Ann said she made a bowl."}`,
	})
	if got := b.Info.Dropped; len(got) != 1 || got[0].QID != "conv-x-q005" {
		t.Errorf("dropped = %v, want conv-x-q005 (evidence D9:9 names no turn)", got)
	}
	if !slices.Equal(noAnswerUser, []string{"conv-x"}) {
		t.Errorf("no-answer users = %v", noAnswerUser)
	}
	if got := b.Info.Originals[0].SHA256; len(got) != 64 {
		t.Errorf("sha256 = %q", got)
	}
}

func TestDeriveCategoryType(t *testing.T) {
	for _, c := range []struct {
		s    datasets.CategoryStats
		want string
	}{
		{datasets.CategoryStats{Adversarial: 1, MultiSession: 1}, datasets.AdversarialType},
		{datasets.CategoryStats{MultiSession: 0.51, WhenWhoWhere: 1}, "aggregate"},
		{datasets.CategoryStats{MultiSession: 0.5, WhenWhoWhere: 0.51}, "named_entity"},
		{datasets.CategoryStats{MultiSession: 0.5, WhenWhoWhere: 0.5}, "contextual"},
	} {
		if got := datasets.DeriveCategoryType(c.s); got != c.want {
			t.Errorf("DeriveCategoryType(%+v) = %s, want %s", c.s, got, c.want)
		}
	}
}

func TestRealPersonaChat(t *testing.T) {
	f, _, err := datasets.ReadRealPersonaChat("testdata/rpc_small.jsonl", datasets.RPCOptions{Users: 2, Questions: 2})
	if err != nil {
		t.Fatal(err)
	}
	b := build(t, f)
	// AA, AB and AC have two dialogues each; ties go to the smaller ID.
	if !slices.Equal(b.Info.Users, []string{"AA", "AB"}) {
		t.Fatalf("users = %v", b.Info.Users)
	}
	ab := []msg{
		{"2022-08-06", "14:51:18", "AA", "こんにちは。"},
		{"2022-08-06", "14:51:48", "AB", "こんにちは！"},
		{"2022-08-06", "14:51:48", "AA", "昨日は淀川の花火大会に行きました。"}, // NaT: the time before it
	}
	ac := []msg{
		{"2022-08-07", "09:00:00", "AC", "よろしくお願いします。"},
		{"2022-08-07", "09:00:30", "AA", "週末は京都の寺院巡りと抹茶パフェを楽しみました。"},
	}
	for name, want := range map[string][]msg{"AA-AB.json": ab, "AA-AC.json": ac} {
		if got := string(b.Files["sources/"+name]); got != exportLines(want) {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, exportLines(want))
		}
	}
	if _, ok := b.Files["sources/AB-AC.json"]; !ok {
		t.Error("AB-AC.json (a dialogue of user AB) missing")
	}
	// AA's two targets in the order of HashID("known-item", user, source,
	// key): the first is the named_entity question (its three rarest terms;
	// every term occurs once, so the first three), the second the
	// contextual one (the middle half of its runes).
	type target struct{ source, key, text string }
	targets := []target{{"AA-AB.json", "1:2", ab[2].text}, {"AA-AC.json", "2:1", ac[1].text}}
	slices.SortFunc(targets, func(x, y target) int {
		return strings.Compare(chat.HashID("known-item", "AA", x.source, x.key), chat.HashID("known-item", "AA", y.source, y.key))
	})
	terms := datasets.ContentTerms(targets[0].text)
	ne := strings.Join(terms[:3], "、") + "について話したのはどの会話？"
	ctx := "「" + datasets.TrimmedSpan(targets[1].text) + "」と話したときのこと"
	checkLines(t, b, datafolder.QuestionsFile, []string{
		`{"qid":"AA-q01","question":"` + ne + `","type":"named_entity","answer":"` + targets[0].text + `"}`,
		`{"qid":"AA-q02","question":"` + ctx + `","type":"contextual","answer":"` + targets[1].text + `"}`,
	})
	chunkOf := map[string]string{
		"AA-AB.json": chat.ChunkID("AA-AB.json", 0, ids("AA-AB.json", ab)),
		"AA-AC.json": chat.ChunkID("AA-AC.json", 0, ids("AA-AC.json", ac)),
	}
	checkLines(t, b, datafolder.QrelsFile, []string{
		"AA-q01 0 " + chunkOf[targets[0].source] + " 2",
		"AA-q02 0 " + chunkOf[targets[1].source] + " 2",
	})
	// No summaries in the data set: the lead of the chunk.
	var first struct{ ChunkID, Summary string }
	if err := json.Unmarshal(bytes.SplitN(b.Files[datafolder.SummariesFile], []byte("\n"), 2)[0], &first); err != nil {
		t.Fatal(err)
	}
	if want := strings.Join([]string{ab[0].text, ab[1].text, ab[2].text}, " / "); first.Summary != want {
		t.Errorf("lead summary = %q, want %q", first.Summary, want)
	}
}

func TestContentTermsAndTrimmedSpan(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"昨日は淀川の花火大会に行きました。", []string{"昨日", "淀川", "花火大会"}},
		{"ディズニーうらやましい！ABCとxyz1、R2", []string{"ディズニー", "ABC", "xyz1"}},
		{"今日も今日とて", []string{"今日"}},
		{"123 です", nil},
	} {
		if got := datasets.ContentTerms(c.in); !slices.Equal(got, c.want) {
			t.Errorf("ContentTerms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// 9 runes: a quarter is 2, so runes 2..6 remain.
	if got, want := datasets.TrimmedSpan("あいうえおかきくけ"), "うえおかき"; got != want {
		t.Errorf("TrimmedSpan = %q, want %q", got, want)
	}
}

// TestLongMemEval: LongMemEval's session setting on a small file in its
// schema: user turns only, one chunk per session; q1's gold is its
// has_answer user turn's session; q2 marks no turn, so it is skipped as
// LongMemEval skips it; q3_abs is the no-answer set.
func TestLongMemEval(t *testing.T) {
	f, noAnswerUser, err := datasets.ReadLongMemEval("testdata/longmemeval_small.json")
	if err != nil {
		t.Fatal(err)
	}
	b := build(t, f)
	s1 := []msg{{"2023-05-20", "02:21:00", "user", "I bought a red car."}}
	s2 := []msg{{"2023-05-21", "09:00:00", "user", "Any tips for tea?"}}
	s3 := []msg{{"2023-05-22", "23:59:00", "user", "Is coffee bad at night?"}}
	chunk := map[string]string{}
	for name, m := range map[string][]msg{"session-s1.json": s1, "session-s2.json": s2, "session-s3.json": s3} {
		if got := string(b.Files["sources/"+name]); got != exportLines(m) {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, exportLines(m))
		}
		chunk[name] = chat.ChunkID(name, 0, ids(name, m))
	}
	checkLines(t, b, datafolder.QuestionsFile, []string{
		`{"qid":"q1","question":"What colour is my car?","type":"named_entity","answer":"red"}`,
	})
	checkLines(t, b, datafolder.NoAnswerFile, []string{`{"qid":"q3_abs","question":"What colour is my bike?","type":"abstention"}`})
	checkLines(t, b, datafolder.QrelsFile, []string{"q1 0 " + chunk["session-s1.json"] + " 2"})
	if len(b.Info.Dropped) != 1 || b.Info.Dropped[0].QID != "q2" || !strings.Contains(b.Info.Dropped[0].Reason, "LongMemEval skips it") {
		t.Errorf("dropped = %v, want q2 skipped as LongMemEval skips it", b.Info.Dropped)
	}
	if !slices.Equal(noAnswerUser, []string{"q3_abs"}) {
		t.Errorf("no-answer users = %v", noAnswerUser)
	}
	users := f.Split(noAnswerUser)
	if len(users) != 3 || len(users[0].Sources) != 2 || len(users[0].Questions) != 1 || len(users[2].NoAnswer) != 1 {
		t.Errorf("split: %d folders", len(users))
	}
}

func TestConvertTwiceSameBytes(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for _, dir := range dirs {
		f, na, err := datasets.ReadLoCoMo("testdata/locomo_small.json")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(dir, true, na); err != nil {
			t.Fatal(err)
		}
	}
	var files []string
	filepath.WalkDir(dirs[0], func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dirs[0], p)
			files = append(files, rel)
		}
		return nil
	})
	if len(files) < 8 {
		t.Fatalf("only %d files written: %v", len(files), files)
	}
	for _, rel := range files {
		a, _ := os.ReadFile(filepath.Join(dirs[0], rel))
		b, err := os.ReadFile(filepath.Join(dirs[1], rel))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two conversions", rel)
		}
	}
}

func TestBadInputNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, content string
		read          func(string) error
		line          int
		expected      string
	}{
		{"locomo.json", "[\n{\"sample_id\": \"c\", \"conversation\": {\"speaker_a\": \"A\", \"speaker_b\": \"B\",\n\"session_1_date_time\": \"yesterday\",\n\"session_1\": [{\"speaker\": \"A\", \"dia_id\": \"D1:1\", \"text\": \"hi\"}]}, \"qa\": []}\n]",
			func(p string) error { _, _, err := datasets.ReadLoCoMo(p); return err }, 3, "session_1_date_time"},
		{"locomo2.json", "[\n{\"sample_id\": \"c\", \"conversation\": {\"speaker_a\": \"A\", \"speaker_b\": \"B\",\n\"session_1_date_time\": \"1:56 pm on 8 May, 2023\",\n\"session_1\": [{\"speaker\": \"C\", \"dia_id\": \"D1:1\", \"text\": \"hi\"}]}, \"qa\": []}\n]",
			func(p string) error { _, _, err := datasets.ReadLoCoMo(p); return err }, 4, "speaker"},
		{"locomo-syntax.json", "[\n{\"sample_id\": \"c\", \"conversation\": {\"speaker_a\": \"A\", \"speaker_b\": \"B\",\n\"session_1_date_time\": \"1:56 pm on 8 May, 2023\",\n\"session_1\": [{\"speaker\" \"A\", \"dia_id\": \"D1:1\", \"text\": \"hi\"}]}, \"qa\": []}\n]",
			func(p string) error { _, _, err := datasets.ReadLoCoMo(p); return err }, 4, "LoCoMo sample"},
		{"locomo-truncated.json", "[\n{\"sample_id\": \"c\", \"conversation\": {\"speaker_a\": \"A\", \"speaker_b\": \"B\",\n\"session_1_date_time\": \"1:56 pm on 8 May, 2023\",\n\"session_1\": [{\"speaker\": \"A\",\n",
			func(p string) error { _, _, err := datasets.ReadLoCoMo(p); return err }, 4, "LoCoMo sample"},
		{"lme-syntax.json", "[\n {\"question_id\": \"q\",\n \"question_type\" \"odd\", \"question\": \"?\"}\n]",
			func(p string) error { _, _, err := datasets.ReadLongMemEval(p); return err }, 3, "LongMemEval question"},
		{"dialogues.jsonl", "{\"dialogue_id\":1,\"interlocutors\":[\"A\",\"B\"],\"utterances\":[]}\n{\"dialogue_id\":2,\"interlocutors\":[\"A\"],\"utterances\":[]}\n",
			func(p string) error { _, _, err := datasets.ReadRealPersonaChat(p, datasets.RPCOptions{}); return err }, 2, "interlocutors"},
		{"lme.json", "[\n {\"question_id\": \"q\", \"question_type\": \"single-session-user\", \"question\": \"?\", \"haystack_session_ids\": [\"s\"], \"haystack_dates\": [\"May 5\"], \"haystack_sessions\": [[]]}\n]",
			func(p string) error { _, _, err := datasets.ReadLongMemEval(p); return err }, 2, "haystack_dates[0]"},
		{"lme2.json", "[\n {\"question_id\": \"q\", \"question_type\": \"odd\", \"question\": \"?\"}\n]",
			func(p string) error { _, _, err := datasets.ReadLongMemEval(p); return err }, 2, "question_type"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		err := c.read(path)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Line != c.line || !strings.Contains(ie.Expected, c.expected) {
			t.Errorf("%s: error %v, want %s:%d naming %s", c.name, err, c.name, c.line, c.expected)
		}
	}
}

// TestWriteReplacesAnEarlierConversion: converting into the folder of an
// earlier conversion leaves only the new one's files (no source or user
// folder of the earlier run for reproduce or benchmark to read), and a
// folder that holds other things is refused and left as it was.
func TestWriteReplacesAnEarlierConversion(t *testing.T) {
	walk := func(dir string) []string {
		var files []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		return files
	}
	fresh, reused := t.TempDir(), t.TempDir()
	all, _, err := datasets.ReadRealPersonaChat("testdata/rpc_small.jsonl", datasets.RPCOptions{Users: 3, Questions: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := all.Write(reused, true, nil); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{fresh, reused} {
		f, _, err := datasets.ReadRealPersonaChat("testdata/rpc_small.jsonl", datasets.RPCOptions{Users: 1, Questions: 2})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(dir, false, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := walk(reused), walk(fresh); !slices.Equal(got, want) {
		t.Errorf("files after converting over an earlier conversion:\n%v\nwant those of a fresh folder:\n%v", got, want)
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	if _, err := all.Write(other, false, nil); err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("writing into a folder of other files: %v, want an error naming it", err)
	}
	if got := walk(other); !slices.Equal(got, []string{"notes.txt"}) {
		t.Errorf("a refused folder holds %v afterwards, want notes.txt only", got)
	}
}

package datasets_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
)

// locomoDoc is a one-sample LoCoMo file, one value per line so that each
// case can name the line of the value it spoils: line 3 sample_id, 5
// speaker_a, 6 speaker_b, 7 the date, 9 and 10 the turns, 13 the qa item.
func locomoDoc(sampleID, turn1, turn2, qa string) string {
	return `[
{
"sample_id": ` + sampleID + `,
"conversation": {
"speaker_a": "Ann",
"speaker_b": "Bob",
"session_1_date_time": "1:56 pm on 8 May, 2023",
"session_1": [
` + turn1 + `,
` + turn2 + `
]},
"qa": [
` + qa + `
]}
]
`
}

const (
	turnA = `{"speaker": "Ann", "dia_id": "D1:1", "text": "I joined a pottery class."}`
	turnB = `{"speaker": "Bob", "dia_id": "D1:2", "text": "Nice."}`
	qaOK  = `{"question": "What did Ann join?", "answer": "a class", "evidence": ["D1:1"], "category": 4}`
)

func readLoCoMo(p string) error { _, _, err := datasets.ReadLoCoMo(p); return err }
func readRPC(p string) error {
	_, _, err := datasets.ReadRealPersonaChat(p, datasets.RPCOptions{Users: 2, Questions: 1})
	return err
}

// rpcLine is a RealPersonaChat dialogue between a and b with one utterance
// of each (utterance IDs 0 and u1).
func rpcLine(id int, a, b string, u1 int) string {
	q := func(s string) string { return `"` + s + `"` }
	return `{"dialogue_id":` + itoa(id) + `,"interlocutors":[` + q(a) + `,` + q(b) + `],"utterances":[` +
		`{"utterance_id":0,"interlocutor_id":` + q(a) + `,"text":"こんにちは。","timestamp":"2022-08-06T14:51:18"},` +
		`{"utterance_id":` + itoa(u1) + `,"interlocutor_id":` + q(b) + `,"text":"どうも。","timestamp":"2022-08-06T14:52:00"}]}` + "\n"
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestUntrustedInputRefusedAtLine: every field of a data set file is
// untrusted. Each case is refused with an *inputerr.Error at the line of the
// offending value (not the first line of its sample) naming what was
// expected, instead of being converted (files outside the output folder,
// merged users, five-field qrels lines, silently dropped or replaced data).
func TestUntrustedInputRefusedAtLine(t *testing.T) {
	long := strings.Repeat("x", datasets.MaxIDBytes+1)
	for _, c := range []struct {
		name, content string
		read          func(string) error
		line          int
		expected      string
	}{
		{"locomo path traversal", locomoDoc(`"../../x"`, turnA, turnB, qaOK), readLoCoMo, 3, "plain name"},
		{"locomo dot-dot", locomoDoc(`".."`, turnA, turnB, qaOK), readLoCoMo, 3, "plain name"},
		{"locomo dot", locomoDoc(`"."`, turnA, turnB, qaOK), readLoCoMo, 3, "plain name"},
		{"locomo slash", locomoDoc(`"conv/26"`, turnA, turnB, qaOK), readLoCoMo, 3, "plain name"},
		{"locomo backslash", locomoDoc(`"conv\\26"`, turnA, turnB, qaOK), readLoCoMo, 3, "plain name"},
		{"locomo white space", locomoDoc(`"conv 26"`, turnA, turnB, qaOK), readLoCoMo, 3, "white space"},
		{"locomo tab", locomoDoc(`"conv\t26"`, turnA, turnB, qaOK), readLoCoMo, 3, "white space"},
		{"locomo NUL", locomoDoc(`"conv\u000026"`, turnA, turnB, qaOK), readLoCoMo, 3, "control character"},
		{"locomo long ID", locomoDoc(`"`+long+`"`, turnA, turnB, qaOK), readLoCoMo, 3, "bytes"},
		{"locomo empty ID", locomoDoc(`""`, turnA, turnB, qaOK), readLoCoMo, 3, "empty"},
		{"locomo trailing copy", locomoDoc(`"c"`, turnA, turnB, qaOK) + locomoDoc(`"d"`, turnA, turnB, qaOK), readLoCoMo, 16, "nothing after the closing ]"},
		{"locomo trailing garbage", locomoDoc(`"c"`, turnA, turnB, qaOK) + "\n\nx", readLoCoMo, 18, "nothing after the closing ]"},
		{"locomo invalid UTF-8", locomoDoc(`"c"`, turnA, `{"speaker": "Bob", "dia_id": "D1:2", "text": "N`+"\xff"+`ice."}`, qaOK), readLoCoMo, 10, "UTF-8"},
		{"locomo leading-zero duplicate dia_id", locomoDoc(`"c"`, `{"speaker": "Ann", "dia_id": "D1:3", "text": "a"}`, `{"speaker": "Bob", "dia_id": "D1:03", "text": "b"}`, qaOK), readLoCoMo, 10, "unique dia_id"},
		{"locomo dia_id of another session", locomoDoc(`"c"`, turnA, `{"speaker": "Bob", "dia_id": "D2:1", "text": "b"}`, qaOK), readLoCoMo, 10, "D1:<turn>"},
		{"locomo dia_id of no shape", locomoDoc(`"c"`, turnA, `{"speaker": "Bob", "dia_id": "turn two", "text": "b"}`, qaOK), readLoCoMo, 10, "D1:<turn>"},
		{"locomo duplicate key", strings.Replace(locomoDoc(`"c"`, turnA, turnB, qaOK), `"speaker_b": "Bob",`, `"speaker_b": "Bob", "speaker_b": "Ann",`, 1), readLoCoMo, 6, `"speaker_b" again`},
		{"locomo same speakers", strings.Replace(locomoDoc(`"c"`, turnA, turnB, qaOK), `"speaker_b": "Bob"`, `"speaker_b": "Ann"`, 1), readLoCoMo, 6, "other than speaker_a"},
		{"locomo bad speaker line", locomoDoc(`"c"`, turnA, `{"speaker": "Cy", "dia_id": "D1:2", "text": "b"}`, `{"question": "Who?", "answer": "x", "evidence": ["D1:2"], "category": 4}`), readLoCoMo, 10, "speaker"},
		{"locomo category type error line", locomoDoc(`"c"`, turnA, turnB, `{"question": "Who?", "answer": "x", "evidence": ["D1:1"],`+"\n"+`"category": "four"}`), readLoCoMo, 14, "LoCoMo sample"},
		{"locomo category out of range line", locomoDoc(`"c"`, turnA, turnB, `{"question": "Who?", "answer": "x", "evidence": ["D1:1"],`+"\n"+`"category": 9}`), readLoCoMo, 14, "category 1–5"},
		{"locomo turn type error line", locomoDoc(`"c"`, turnA, `{"speaker": "Bob", "dia_id": "D1:2", "text": 7}`, qaOK), readLoCoMo, 10, "session_1"},
		{"rpc path traversal", rpcLine(1, "../../x", "AB", 1), readRPC, 1, "plain name"},
		{"rpc dot-dot", rpcLine(1, "AA", "..", 1), readRPC, 1, "plain name"},
		{"rpc white space", rpcLine(1, "AA", "A B", 1), readRPC, 1, "white space"},
		{"rpc slash", rpcLine(1, "AA", "x/y", 1), readRPC, 1, "plain name"},
		{"rpc folder names collide", rpcLine(1, "AA", "x_y", 1) + rpcLine(2, "AA", "x+y", 1), readRPC, 2, "distinct file names"},
		{"rpc source names collide", rpcLine(1, "A-B", "C", 1) + rpcLine(2, "A", "B-C", 1), readRPC, 2, "distinct file names"},
		{"rpc duplicate utterance_id", rpcLine(1, "AA", "AB", 1) + rpcLine(2, "AA", "AB", 0), readRPC, 2, "unique utterance_id"},
		{"rpc duplicate key", rpcLine(1, "AA", "AB", 1) + strings.Replace(rpcLine(2, "AA", "AB", 1), `"dialogue_id":2,`, `"dialogue_id":2,"dialogue_id":3,`, 1), readRPC, 2, "each key once"},
		{"rpc invalid UTF-8", rpcLine(1, "AA", "AB", 1) + strings.Replace(rpcLine(2, "AA", "AB", 1), "どうも", "\xe3\x81", 1), readRPC, 2, "UTF-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.json")
			if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			err := c.read(path)
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Line != c.line || !strings.Contains(ie.Expected, c.expected) {
				t.Errorf("error %v, want in.json:%d naming %q", err, c.line, c.expected)
			}
		})
	}
}

// TestValidVariantsAccepted: the checks refuse only what they name; a
// LoCoMo file in CRLF with a final newline, Japanese IDs and a dia_id with
// leading zeros are read.
func TestValidVariantsAccepted(t *testing.T) {
	for _, c := range []struct {
		name, content string
		read          func(string) error
	}{
		{"locomo CRLF", strings.ReplaceAll(locomoDoc(`"c"`, turnA, turnB, qaOK), "\n", "\r\n"), readLoCoMo},
		{"locomo Japanese ID", locomoDoc(`"会話-1"`, turnA, turnB, qaOK), readLoCoMo},
		{"locomo leading zeros", locomoDoc(`"c"`, turnA, `{"speaker": "Bob", "dia_id": "D01:002", "text": "b"}`, qaOK), readLoCoMo},
		{"rpc pairs", rpcLine(1, "AA", "AB", 1) + rpcLine(2, "AB", "AC", 1), readRPC},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.json")
			os.WriteFile(path, []byte(c.content), 0o644)
			if err := c.read(path); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}
}

// TestRPCDialogueWithoutTimes: a dialogue whose every timestamp is NaT is
// dated 1970-01-01 00:00:00, as the package doc says.
func TestRPCDialogueWithoutTimes(t *testing.T) {
	line := strings.ReplaceAll(rpcLine(1, "AA", "AB", 1), `"2022-08-06T14:51:18"`, `"NaT"`)
	line = strings.ReplaceAll(line, `"2022-08-06T14:52:00"`, `"NaT"`)
	path := filepath.Join(t.TempDir(), "dialogues.jsonl")
	os.WriteFile(path, []byte(line), 0o644)
	f, _, err := datasets.ReadRealPersonaChat(path, datasets.RPCOptions{Users: 1, Questions: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range f.Sources[0].Turns {
		if got := turn.At.Format("2006-01-02 15:04:05"); got != "1970-01-01 00:00:00" {
			t.Errorf("turn %s at %s, want 1970-01-01 00:00:00", turn.Key, got)
		}
	}
}

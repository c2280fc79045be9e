// Command adversarial throws seeded hostile inputs at `linemem datasets
// convert` and `linemem benchmark` and classifies every outcome. It is the
// reproducible form of the adversarial round of issue 40, run by `make
// adversarial` (not in CI: it takes a few minutes).
//
//   - Inputs: LoCoMo and RealPersonaChat files generated from the seed, each
//     valid or spoiled in one way (truncated, bytes mutated, a value of the
//     wrong type, huge, deeply nested, a duplicate ID or key, empty, invalid
//     UTF-8, a byte-order mark, NaN and other non-numbers, hostile IDs,
//     trailing data), converted with --per-user into a folder that holds an
//     earlier conversion for every third case.
//   - Kills: convert (and benchmark) killed with SIGKILL at a seeded moment;
//     the output folder must then be the earlier result or the complete new
//     one, byte for byte, and the next run must clear what the kill left.
//   - Concurrent pairs: two converts of different inputs into one folder at
//     once; the folder must end as one complete result.
//   - Flags: out-of-range numeric flags must be usage errors naming the flag.
//
// Outcomes: clear error (non-zero exit, a message naming the input file and
// line, or the flag), accepted valid (exit 0 and the output agrees with the
// input), silent-wrong (exit 0 on an input the generator spoiled in a way
// that must be refused, or output that disagrees with the input), unclear (a
// failure whose message names neither), panic, hang (over --timeout), and
// write outside the output folder (any new path beside it once the command
// has exited, other than the temporary folder a kill leaves, or a change to
// the earlier conversion after a failure).
//
//	go run ./scripts/adversarial [--seed 40] [--work build/adversarial]
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

type outcome string

const (
	clearError    outcome = "clear error"
	acceptedValid outcome = "accepted valid"
	silentWrong   outcome = "silent-wrong"
	unclear       outcome = "unclear"
	panicked      outcome = "panic"
	hung          outcome = "hang"
	outside       outcome = "write outside the output folder"
)

var outcomes = []outcome{clearError, acceptedValid, silentWrong, unclear, panicked, hung, outside}

// tally counts outcomes per group of cases and keeps a few examples of the
// bad ones.
type tally struct {
	counts   map[string]map[outcome]int
	groups   []string
	examples []string
}

func (t *tally) add(group string, o outcome, detail string) {
	if t.counts[group] == nil {
		t.counts[group] = map[outcome]int{}
		t.groups = append(t.groups, group)
	}
	t.counts[group][o]++
	if o != clearError && o != acceptedValid && len(t.examples) < 40 {
		t.examples = append(t.examples, fmt.Sprintf("%s: %s: %s", group, o, detail))
	}
}

// run is one command's result.
type run struct {
	stdout, stderr string
	code           int
	timedOut       bool
}

func execute(timeout time.Duration, bin string, args ...string) run {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	r := run{stdout: out.String(), stderr: errOut.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.timedOut = true
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		r.code = -1
		r.stderr += err.Error()
	}
	return r
}

// treeHash is a digest of every path and file under dir ("" when dir is
// missing).
func treeHash(dir string) string {
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s\x00", rel)
		if !d.IsDir() {
			b, _ := os.ReadFile(p)
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
}

func names(dir string) []string {
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

var (
	panicLine = regexp.MustCompile(`(?m)^(panic:|fatal error:|goroutine \d+ \[)`)
	fileLine  = regexp.MustCompile(`(locomo10\.json|dialogues\.jsonl):\d+: expected `)
)

// expectation is what a generated input must give.
type expectation int

const (
	mustAccept expectation = iota // valid: exit 0 with the counts below
	mustRefuse                    // spoiled in a way the readers must refuse
	either                        // refusal or a correct conversion
)

// input is one generated data-set file.
type input struct {
	dataset string // "locomo" or "realpersonachat"
	kind    string
	data    []byte
	expect  expectation
	users   int // expected users (when accepted)
	turns   int // expected messages (when accepted)
}

// ---- LoCoMo generation ----

type locoTurn struct {
	Speaker string `json:"speaker"`
	DiaID   string `json:"dia_id"`
	Text    string `json:"text"`
}

type locoQA struct {
	Question string   `json:"question"`
	Answer   string   `json:"answer"`
	Evidence []string `json:"evidence"`
	Category int      `json:"category"`
}

type locoSample struct {
	SampleID     string
	Speakers     [2]string
	Sessions     [][]locoTurn
	QA           []locoQA
	ExtraSession map[string]any
}

var words = []string{"pottery", "dog", "class", "bowl", "camping", "mountain", "guitar", "painting", "book", "sister", "garden", "concert", "recipe", "marathon", "photo"}

func sentence(rng *rand.Rand) string {
	n := 3 + rng.IntN(8)
	w := make([]string, n)
	for i := range w {
		w[i] = words[rng.IntN(len(words))]
	}
	return strings.Join(w, " ") + "."
}

func genLoCoMo(rng *rand.Rand, samples int) []locoSample {
	var out []locoSample
	for s := range samples {
		ls := locoSample{SampleID: fmt.Sprintf("conv-%d", s+1), Speakers: [2]string{"Ann", "Bob"}}
		for n := range 1 + rng.IntN(3) {
			var turns []locoTurn
			for i := range 2 + rng.IntN(5) {
				turns = append(turns, locoTurn{ls.Speakers[i%2], fmt.Sprintf("D%d:%d", n+1, i+1), sentence(rng)})
			}
			ls.Sessions = append(ls.Sessions, turns)
		}
		for range 1 + rng.IntN(4) {
			sess := ls.Sessions[rng.IntN(len(ls.Sessions))]
			t := sess[rng.IntN(len(sess))]
			ls.QA = append(ls.QA, locoQA{"What about " + sentence(rng), "a " + words[rng.IntN(len(words))], []string{t.DiaID}, 1 + rng.IntN(4)})
		}
		out = append(out, ls)
	}
	return out
}

// locoJSON renders samples as locomo10.json, one value per line.
func locoJSON(samples []locoSample) []byte {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, s := range samples {
		if i > 0 {
			b.WriteString(",\n")
		}
		id, _ := json.Marshal(s.SampleID)
		fmt.Fprintf(&b, "{\n\"sample_id\": %s,\n\"conversation\": {\n\"speaker_a\": %q,\n\"speaker_b\": %q", id, s.Speakers[0], s.Speakers[1])
		for n, turns := range s.Sessions {
			fmt.Fprintf(&b, ",\n\"session_%d_date_time\": \"1:56 pm on %d May, 2023\",\n\"session_%d\": [\n", n+1, n+1, n+1)
			for j, t := range turns {
				tb, _ := json.Marshal(t)
				if j > 0 {
					b.WriteString(",\n")
				}
				b.Write(tb)
			}
			b.WriteString("\n]")
		}
		b.WriteString("\n},\n\"qa\": [\n")
		for j, q := range s.QA {
			qb, _ := json.Marshal(q)
			if j > 0 {
				b.WriteString(",\n")
			}
			b.Write(qb)
		}
		b.WriteString("\n]}")
	}
	b.WriteString("\n]\n")
	return b.Bytes()
}

func locoTurns(samples []locoSample) int {
	n := 0
	for _, s := range samples {
		for _, t := range s.Sessions {
			n += len(t)
		}
	}
	return n
}

var hostileIDs = []string{"../../x", "..", ".", "x/y", "conv 26", "a\tb", "a\x00b", strings.Repeat("x", 300), "", ".hidden", "a\\b", "a\nb"}

// ---- RealPersonaChat generation ----

type rpcUtt struct {
	UtteranceID    int    `json:"utterance_id"`
	InterlocutorID string `json:"interlocutor_id"`
	Text           string `json:"text"`
	Timestamp      string `json:"timestamp"`
}

type rpcDlg struct {
	DialogueID    int      `json:"dialogue_id"`
	Interlocutors []string `json:"interlocutors"`
	Utterances    []rpcUtt `json:"utterances"`
}

var jaWords = []string{"花火大会", "淀川", "キャンプ", "料理", "ビール", "軽井沢", "スノボー", "資格", "勉強", "アイス", "コーヒー", "新幹線", "結婚式", "ブライダル", "営業"}

func jaSentence(rng *rand.Rand) string {
	n := 2 + rng.IntN(5)
	w := make([]string, n)
	for i := range w {
		w[i] = jaWords[rng.IntN(len(jaWords))]
	}
	return strings.Join(w, "と") + "の話をしました。"
}

func genRPC(rng *rand.Rand, dialogues, people, utterances int) []rpcDlg {
	var out []rpcDlg
	for d := range dialogues {
		a := rng.IntN(people)
		b := (a + 1 + rng.IntN(people-1)) % people
		ids := []string{fmt.Sprintf("A%c", 'A'+a), fmt.Sprintf("A%c", 'A'+b)}
		dl := rpcDlg{DialogueID: d + 1, Interlocutors: ids}
		t0 := time.Date(2022, 8, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(d) * time.Hour)
		for u := range 2 + rng.IntN(utterances) {
			ts := t0.Add(time.Duration(u) * time.Minute).Format("2006-01-02T15:04:05.000000")
			if rng.IntN(10) == 0 {
				ts = "NaT"
			}
			dl.Utterances = append(dl.Utterances, rpcUtt{u, ids[u%2], jaSentence(rng), ts})
		}
		out = append(out, dl)
	}
	return out
}

func rpcJSONL(ds []rpcDlg) []byte {
	var b bytes.Buffer
	for _, d := range ds {
		line, _ := json.Marshal(d)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func rpcTurns(ds []rpcDlg) int {
	n := 0
	for _, d := range ds {
		n += len(d.Utterances)
	}
	return n
}

func rpcPeople(ds []rpcDlg) int {
	seen := map[string]bool{}
	for _, d := range ds {
		for _, id := range d.Interlocutors {
			seen[id] = true
		}
	}
	return len(seen)
}

// ---- byte-level spoilers ----

func truncate(rng *rand.Rand, b []byte) []byte {
	return slices.Clone(b[:1+rng.IntN(len(b)-2)])
}

func mutate(rng *rand.Rand, b []byte) []byte {
	out := slices.Clone(b)
	chars := []byte(`{}[]:,"\0 x1-.`)
	for range 1 + rng.IntN(3) {
		out[rng.IntN(len(out))] = chars[rng.IntN(len(chars))]
	}
	return out
}

// replaceNth replaces the n-th (0-based, taken modulo the count) occurrence
// of old in b; b unchanged when old does not occur.
func replaceNth(b []byte, old, new string, n int) []byte {
	c := bytes.Count(b, []byte(old))
	if c == 0 {
		return b
	}
	n %= c
	i := 0
	for k := 0; k <= n; k++ {
		j := bytes.Index(b[i:], []byte(old))
		if k == n {
			i += j
			break
		}
		i += j + len(old)
	}
	return slices.Concat(b[:i], []byte(new), b[i+len(old):])
}

// ---- generators of the input cases ----

func locomoInputs(rng *rand.Rand) []input {
	var out []input
	valid := func() ([]locoSample, []byte) {
		s := genLoCoMo(rng, 1+rng.IntN(3))
		return s, locoJSON(s)
	}
	add := func(kind string, data []byte, e expectation, s []locoSample) {
		out = append(out, input{dataset: "locomo", kind: kind, data: data, expect: e, users: len(s), turns: locoTurns(s)})
	}
	for range 40 {
		s, b := valid()
		add("valid", b, mustAccept, s)
	}
	for range 30 {
		s, b := valid()
		add("truncated", truncate(rng, b), mustRefuse, s)
	}
	for range 40 {
		s, b := valid()
		add("mutated", mutate(rng, b), either, s)
	}
	wrong := []struct{ old, new string }{
		{`"category":`, `"category":"four",`}, {`"speaker_a": "Ann"`, `"speaker_a": 7`}, {`"text":"`, `"text":["x"],"t":"`},
		{`"evidence":[`, `"evidence":{"a":[`}, {`"qa": [`, `"qa": {"x": [`}, {`"dia_id":"`, `"dia_id":3,"x":"`},
		{`"conversation": {`, `"conversation": [{`}, {`"session_1": [`, `"session_1": {"x":[`}, {`"sample_id": "`, `"sample_id": null, "x": "`},
	}
	for i := range 36 {
		s, b := valid()
		w := wrong[i%len(wrong)]
		add("wrong-type", replaceNth(b, w.old, w.new, rng.IntN(4)), mustRefuse, s)
	}
	for i := range 10 {
		s := genLoCoMo(rng, 1)
		if i%2 == 0 {
			s[0].Sessions[0][0].Text = strings.Repeat(sentence(rng), 60_000+rng.IntN(60_000))
		} else {
			var turns []locoTurn
			for j := range 5000 + rng.IntN(5000) {
				turns = append(turns, locoTurn{s[0].Speakers[j%2], fmt.Sprintf("D1:%d", j+1), sentence(rng)})
			}
			s[0].Sessions[0] = turns
		}
		add("huge", locoJSON(s), mustAccept, s)
	}
	for i := range 12 {
		s, b := valid()
		depth := []int{50, 500, 9000, 20000, 200000}[i%5]
		nest := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		e := mustAccept
		if depth > 9000 {
			e = mustRefuse
		}
		add("nested", replaceNth(b, `"qa": [`, `"extra": `+nest+`, "qa": [`, 0), e, s)
	}
	for i := range 30 {
		s := genLoCoMo(rng, 2)
		switch i % 5 {
		case 0:
			s[1].SampleID = s[0].SampleID
		case 1:
			s[0].Sessions[0][1].DiaID = s[0].Sessions[0][0].DiaID
		case 2:
			s[0].Sessions[0][1].DiaID = strings.Replace(s[0].Sessions[0][0].DiaID, ":", ":0", 1)
		case 3:
			s[0].Sessions[0][1].DiaID = "D9:1"
		}
		b := locoJSON(s)
		if i%5 == 4 {
			b = replaceNth(b, `"speaker_b": "Bob"`, `"speaker_b": "Bob", "speaker_b": "Cy"`, 0)
		}
		add("duplicate-ID", b, mustRefuse, s)
	}
	for _, e := range []string{"", " ", "\n\n", "[]", "{}", "null", "[{}]", "[null]", "[[]]", `[{"sample_id":"c"}]`, "0", `""`} {
		add("empty", []byte(e), mustRefuse, nil)
	}
	for range 20 {
		s, b := valid()
		bad := []string{"\xff", "\xc3", "\xe3\x81", "\xed\xa0\x80", "\xf8\x88\x80\x80\x80"}[rng.IntN(5)]
		add("non-UTF-8", replaceNth(b, `"text":"`, `"text":"`+bad, rng.IntN(5)), mustRefuse, s)
	}
	for range 8 {
		s, b := valid()
		add("BOM", append([]byte("\xef\xbb\xbf"), b...), either, s)
	}
	for i := range 16 {
		s, b := valid()
		v := []string{"NaN", "Infinity", "-Infinity", "1e400", "1.5", "-0", "0x10", "+1"}[i%8]
		add("NaN", replaceNth(b, `"category":`, `"category":`+v+`,"c":`, 0), mustRefuse, s)
	}
	for i := range 36 {
		s := genLoCoMo(rng, 1+rng.IntN(2))
		id := hostileIDs[i%len(hostileIDs)]
		s[rng.IntN(len(s))].SampleID = id
		add("hostile-ID", locoJSON(s), mustRefuse, s)
	}
	for i := range 12 {
		s, b := valid()
		tail := [][]byte{b, []byte("x"), []byte("]"), []byte("{}"), []byte("\x00"), []byte("// end")}[i%6]
		add("trailing", slices.Concat(b, tail), mustRefuse, s)
	}
	return out
}

func rpcInputs(rng *rand.Rand) []input {
	var out []input
	valid := func() ([]rpcDlg, []byte) {
		d := genRPC(rng, 3+rng.IntN(6), 3+rng.IntN(4), 6)
		return d, rpcJSONL(d)
	}
	add := func(kind string, data []byte, e expectation, d []rpcDlg) {
		out = append(out, input{dataset: "realpersonachat", kind: kind, data: data, expect: e, users: rpcPeople(d), turns: rpcTurns(d)})
	}
	for range 30 {
		d, b := valid()
		add("valid", b, mustAccept, d)
	}
	for range 25 {
		d, b := valid()
		cut := truncate(rng, b)
		e := mustRefuse
		if cut[len(cut)-1] == '\n' || bytes.HasSuffix(cut, []byte("}")) {
			e = either // a cut at a line end is a shorter valid file
		}
		add("truncated", cut, e, d)
	}
	for range 30 {
		d, b := valid()
		add("mutated", mutate(rng, b), either, d)
	}
	wrong := []struct{ old, new string }{
		{`"dialogue_id":`, `"dialogue_id":"x","y":`}, {`"interlocutors":[`, `"interlocutors":[1,`}, {`"utterance_id":`, `"utterance_id":"a","u":`},
		{`"text":"`, `"text":{"a":1},"t":"`}, {`"timestamp":"`, `"timestamp":"yesterday","ts":"`}, {`"utterances":[`, `"utterances":{"a":[`},
	}
	for i := range 30 {
		d, b := valid()
		w := wrong[i%len(wrong)]
		add("wrong-type", replaceNth(b, w.old, w.new, rng.IntN(3)), mustRefuse, d)
	}
	for range 6 {
		d := genRPC(rng, 400+rng.IntN(400), 8, 60)
		add("huge", rpcJSONL(d), mustAccept, d)
	}
	for i := range 10 {
		d, b := valid()
		depth := []int{50, 500, 20000, 200000, 9000}[i%5]
		e := mustAccept
		if depth > 9000 {
			e = mustRefuse
		}
		add("nested", replaceNth(b, `"utterances":[`, `"extra":`+strings.Repeat("[", depth)+strings.Repeat("]", depth)+`,"utterances":[`, 0), e, d)
	}
	for i := range 24 {
		d, _ := valid()
		switch i % 4 {
		case 0:
			d[1].DialogueID = d[0].DialogueID
		case 1:
			d[0].Utterances[1].UtteranceID = d[0].Utterances[0].UtteranceID
		case 2:
			d[0].Interlocutors[1] = d[0].Interlocutors[0]
		}
		b := rpcJSONL(d)
		if i%4 == 3 {
			b = replaceNth(b, `"dialogue_id":`, `"dialogue_id":99,"dialogue_id":`, 0)
		}
		add("duplicate-ID", b, mustRefuse, d)
	}
	for _, e := range []string{"", " ", "\n", "{}", "null", "[]", `{"dialogue_id":1}`, `{"dialogue_id":1,"interlocutors":["A","B"],"utterances":[]}`} {
		add("empty", []byte(e), mustRefuse, nil)
	}
	for range 16 {
		d, b := valid()
		bad := []string{"\xff", "\xc3", "\xe3\x81", "\xed\xa0\x80"}[rng.IntN(4)]
		add("non-UTF-8", replaceNth(b, `"text":"`, `"text":"`+bad, rng.IntN(5)), mustRefuse, d)
	}
	for range 6 {
		d, b := valid()
		add("BOM", append([]byte("\xef\xbb\xbf"), b...), either, d)
	}
	for i := range 12 {
		d, b := valid()
		v := []string{"NaN", "Infinity", "-Infinity", "1e400", "1.5", "0x10"}[i%6]
		add("NaN", replaceNth(b, `"dialogue_id":`, `"dialogue_id":`+v+`,"d":`, 0), mustRefuse, d)
	}
	for i := range 30 {
		d, _ := valid()
		k := rng.IntN(len(d))
		id := hostileIDs[i%len(hostileIDs)]
		old := d[k].Interlocutors[0]
		d[k].Interlocutors[0] = id
		for j := range d[k].Utterances {
			if d[k].Utterances[j].InterlocutorID == old {
				d[k].Utterances[j].InterlocutorID = id
			}
		}
		add("hostile-ID", rpcJSONL(d), mustRefuse, d)
	}
	for i := range 10 {
		d, b := valid()
		tail := []string{"x", "]", "{}{}", `{"dialogue_id":1} trailing`, "\x00"}[i%5]
		add("trailing", slices.Concat(b, []byte(tail)), mustRefuse, d)
	}
	return out
}

// ---- checks of an accepted conversion ----

type datasetInfo struct {
	Users    []string `json:"users"`
	Sources  int      `json:"sources"`
	Messages int      `json:"messages"`
}

// checkOutput returns "" when the folder out agrees with in, else what is
// wrong.
func checkOutput(in input, out string) string {
	b, err := os.ReadFile(filepath.Join(out, "dataset.json"))
	if err != nil {
		return "no dataset.json"
	}
	var info datasetInfo
	if err := json.Unmarshal(b, &info); err != nil {
		return "dataset.json: " + err.Error()
	}
	if in.expect == mustAccept || in.kind == "BOM" {
		if len(info.Users) != min(in.users, 20) || info.Messages != in.turns {
			return fmt.Sprintf("%d users and %d messages, want %d and %d", len(info.Users), info.Messages, min(in.users, 20), in.turns)
		}
	}
	if got := len(names(filepath.Join(out, "sources"))); got != info.Sources {
		return fmt.Sprintf("%d source files for %d sources", got, info.Sources)
	}
	if got := len(names(filepath.Join(out, "users"))); got != len(info.Users) {
		return fmt.Sprintf("%d user folders for %d users", got, len(info.Users))
	}
	q, _ := os.ReadFile(filepath.Join(out, "qrels.txt"))
	for _, line := range strings.Split(strings.TrimSpace(string(q)), "\n") {
		if line != "" && len(strings.Fields(line)) != 4 {
			return fmt.Sprintf("qrels line %q has %d fields", line, len(strings.Fields(line)))
		}
	}
	return ""
}

// ---- the rounds ----

type config struct {
	bin, work string
	timeout   time.Duration
	rng       *rand.Rand
	t         *tally
	killed    map[string][2]int // group → kills that left the earlier, the new result
}

// earlier is a finished conversion copied under an output folder so that a
// failing convert can be checked to leave it alone.
func (c *config) inputs(ins []input) {
	earlierIn := filepath.Join(c.work, "earlier.json")
	os.WriteFile(earlierIn, locoJSON(genLoCoMo(c.rng, 1)), 0o600)
	earlier := filepath.Join(c.work, "earlier")
	if r := execute(c.timeout, c.bin, "datasets", "convert", "locomo", earlierIn, earlier, "--per-user"); r.code != 0 {
		fail("converting the earlier folder: %s", r.stderr)
	}
	earlierHash := treeHash(earlier)
	for i, in := range ins {
		caseDir := filepath.Join(c.work, fmt.Sprintf("case-%04d", i))
		os.RemoveAll(caseDir)
		name := "locomo10.json"
		if in.dataset == "realpersonachat" {
			name = "dialogues.jsonl"
		}
		inPath := filepath.Join(caseDir, "in", name)
		os.MkdirAll(filepath.Dir(inPath), 0o700)
		os.WriteFile(inPath, in.data, 0o600)
		parent := filepath.Join(caseDir, "parent")
		os.MkdirAll(parent, 0o700)
		out := filepath.Join(parent, "out")
		withEarlier := i%3 == 0
		if withEarlier {
			exec.Command("cp", "-r", earlier, out).Run()
		}
		r := execute(c.timeout, c.bin, "datasets", "convert", in.dataset, inPath, out, "--per-user")
		group := in.dataset + " " + in.kind
		o, detail := classify(r, in)
		if o == clearError || o == acceptedValid {
			if got := names(parent); !slices.Equal(got, []string{"out"}) && !(len(got) == 0 && r.code != 0 && !withEarlier) {
				o, detail = outside, fmt.Sprintf("beside the output folder: %v", got)
			} else if got := names(filepath.Join(caseDir, "in")); len(got) != 1 {
				o, detail = outside, fmt.Sprintf("in the input folder: %v", got)
			} else if r.code != 0 && withEarlier && treeHash(out) != earlierHash {
				o, detail = outside, "a failed convert changed the earlier conversion"
			}
		}
		if o == acceptedValid {
			if msg := checkOutput(in, out); msg != "" {
				o, detail = silentWrong, msg
			}
		}
		c.t.add(group, o, fmt.Sprintf("case-%04d %s", i, detail))
		if o == clearError || o == acceptedValid {
			os.RemoveAll(caseDir)
		}
	}
}

func classify(r run, in input) (outcome, string) {
	switch {
	case r.timedOut:
		return hung, "over the time limit"
	case panicLine.MatchString(r.stderr):
		return panicked, firstLine(r.stderr)
	case r.code == 0 && in.expect == mustRefuse:
		return silentWrong, "accepted an input that must be refused"
	case r.code == 0:
		return acceptedValid, ""
	case in.expect == mustAccept:
		return unclear, "refused a valid input: " + firstLine(r.stderr)
	case fileLine.MatchString(r.stderr) || strings.Contains(r.stderr, "gzip") || strings.Contains(r.stderr, "at least one"):
		return clearError, ""
	}
	return unclear, firstLine(r.stderr)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// kills converts or benchmarks into a folder holding an earlier result,
// killing each run at a seeded moment: the folder must then hold the earlier
// or the complete new result, and the next run must leave nothing beside it.
func (c *config) kills(group string, n int, refs [2]string, argsFor func(k int, out string) []string, durations time.Duration) {
	parent := filepath.Join(c.work, group+"-kills")
	os.RemoveAll(parent)
	os.MkdirAll(parent, 0o700)
	out := filepath.Join(parent, "out")
	exec.Command("cp", "-r", refs[0], out).Run()
	hashes := [2]string{treeHash(refs[0]), treeHash(refs[1])}
	state := 0
	for i := range n {
		next := 1 - state
		cmd := exec.Command(c.bin, argsFor(next, out)...)
		if err := cmd.Start(); err != nil {
			fail("%v", err)
		}
		time.Sleep(time.Duration(c.rng.Int64N(int64(durations))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		h := treeHash(out)
		switch h {
		case hashes[state]:
			c.t.add(group+" kill", acceptedValid, "")
			k := c.killed[group]
			k[0]++
			c.killed[group] = k
		case hashes[next]:
			state = next
			c.t.add(group+" kill", acceptedValid, "")
			k := c.killed[group]
			k[1]++
			c.killed[group] = k
		default:
			c.t.add(group+" kill", silentWrong, fmt.Sprintf("kill %d: the output folder is neither the earlier nor the new result", i))
			exec.Command("rm", "-rf", out).Run()
			exec.Command("cp", "-r", refs[state], out).Run()
		}
		if got := names(parent); slices.ContainsFunc(got, func(n string) bool { return n != "out" && !strings.HasPrefix(n, ".out.") }) {
			c.t.add(group+" kill", outside, fmt.Sprintf("kill %d: beside the output folder: %v", i, got))
		}
	}
	next := 1 - state
	if r := execute(c.timeout, c.bin, argsFor(next, out)...); r.code != 0 {
		c.t.add(group+" rerun after kills", unclear, firstLine(r.stderr))
	} else if got := names(parent); !slices.Equal(got, []string{"out"}) {
		c.t.add(group+" rerun after kills", outside, fmt.Sprintf("left beside the output folder: %v", got))
	} else if treeHash(out) != hashes[next] {
		c.t.add(group+" rerun after kills", silentWrong, "a rerun after kills differs from an uninterrupted run")
	} else {
		c.t.add(group+" rerun after kills", acceptedValid, "")
	}
}

// pairs starts two converts of different inputs into one folder at once.
func (c *config) pairs(n int, ins [2]string, refs [2]string) {
	hashes := [2]string{treeHash(refs[0]), treeHash(refs[1])}
	for i := range n {
		parent := filepath.Join(c.work, fmt.Sprintf("pair-%02d", i))
		os.RemoveAll(parent)
		os.MkdirAll(parent, 0o700)
		out := filepath.Join(parent, "out")
		if i%2 == 1 {
			exec.Command("cp", "-r", refs[0], out).Run()
		}
		results := make(chan run, 2)
		for k := range 2 {
			go func() {
				results <- execute(c.timeout, c.bin, "datasets", "convert", "realpersonachat", ins[k], out, "--per-user", "--users", "4")
			}()
		}
		ok := true
		for range 2 {
			r := <-results
			if r.timedOut || panicLine.MatchString(r.stderr) || (r.code != 0 && !strings.Contains(r.stderr, "another writer")) {
				ok = false
				c.t.add("concurrent pair", unclear, firstLine(r.stderr))
			}
		}
		h := treeHash(out)
		switch {
		case h != hashes[0] && h != hashes[1]:
			c.t.add("concurrent pair", silentWrong, fmt.Sprintf("pair %d: the folder is not one complete result", i))
		case !slices.Equal(names(parent), []string{"out"}):
			c.t.add("concurrent pair", outside, fmt.Sprintf("pair %d: beside the output folder: %v", i, names(parent)))
		case ok:
			c.t.add("concurrent pair", acceptedValid, "")
		}
		os.RemoveAll(parent)
	}
}

// flags gives out-of-range numeric flags: each must be a usage error
// naming the flag, before any work.
func (c *config) flags() {
	db := filepath.Join(c.work, "none.db")
	for _, args := range [][]string{
		{"analyzers", "compare", "--bootstrap", "2000000000"}, {"analyzers", "abstain", "--at", "-1"}, {"analyzers", "abstain", "--at", "1.5"},
		{"analyzers", "abstain", "--at", "NaN"}, {"analyzers", "abstain", "--at", "Inf"}, {"analyzers", "abstain", "--at", "-Inf"},
		{"summarize", "--max-attempts", "0"}, {"summarize", "--max-attempts", "-1"}, {"summarize", "--timeout", "0s"}, {"summarize", "--timeout", "-1s"},
		{"summarize", "--interval", "-1s"}, {"summarize", "--rpm", "-1"}, {"summarize", "--tpm", "-5"}, {"summarize", "--max-output-tokens", "0"},
		{"summarize", "--price-in", "NaN"}, {"summarize", "--price-out", "-1"}, {"embed", "--batch", "0"}, {"embed", "--vocab", "0"},
		{"embed", "--dimensions", "-1"}, {"embed", "--cap", "0"}, {"ask", "--input-cap", "0"}, {"ask", "--k", "0"},
		{"eval-answers", "--max-output-tokens", "0"}, {"questions", "draft", "--per-window", "0"}, {"questions", "draft", "--window-chars", "-3"},
		{"search", "--k", "100000"}, {"search", "--context", "-1"}, {"ingest", "--max-file-mib", "0"}, {"ingest", "--window", "0"},
		{"mcp", "--idle-timeout", "-1s"}, {"eval", "--bootstrap", "0"}, {"reproduce", "--bootstrap", "1000000000"}, {"robustness", "--workers", "-1"},
		{"datasets", "--users", "0"}, {"gold", "pool", "--depth", "-1"},
	} {
		name := ""
		for _, a := range args {
			if strings.HasPrefix(a, "--") {
				name = a
			}
		}
		r := execute(c.timeout, c.bin, append(args, "--db", db)...)
		o, detail := clearError, ""
		switch {
		case r.timedOut:
			o = hung
		case panicLine.MatchString(r.stderr):
			o, detail = panicked, firstLine(r.stderr)
		case r.code == 0:
			o, detail = silentWrong, strings.Join(args, " ")+" accepted"
		case r.code != 2 || !strings.Contains(r.stderr, name+" must be"):
			o, detail = unclear, strings.Join(args, " ")+": "+firstLine(r.stderr)
		}
		if _, err := os.Stat(db); err == nil {
			o, detail = outside, strings.Join(args, " ")+" created the database"
			os.Remove(db)
		}
		c.t.add("flags", o, detail)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "adversarial: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	seed := flag.Uint64("seed", 40, "random `SEED` of the inputs and the kill moments")
	work := flag.String("work", "build/adversarial", "scratch `DIR` (emptied first; holds generated files only)")
	bin := flag.String("bin", "", "linemem binary (default: built into the scratch folder)")
	timeout := flag.Duration("timeout", 60*time.Second, "a command running longer is a hang")
	kills := flag.Int("kills", 24, "SIGKILLs during convert (benchmark gets a third as many)")
	pairs := flag.Int("pairs", 10, "concurrent convert pairs")
	flag.Parse()
	os.RemoveAll(*work)
	if err := os.MkdirAll(*work, 0o700); err != nil {
		fail("%v", err)
	}
	abs, _ := filepath.Abs(*work)
	c := &config{work: abs, timeout: *timeout, rng: rand.New(rand.NewPCG(*seed, 40)), t: &tally{counts: map[string]map[outcome]int{}}, killed: map[string][2]int{}}
	c.bin = *bin
	if c.bin == "" {
		c.bin = filepath.Join(abs, "linemem")
		if out, err := exec.Command("go", "build", "-o", c.bin, "./cmd/linemem").CombinedOutput(); err != nil {
			fail("go build: %v\n%s", err, out)
		}
	}
	start := time.Now()

	ins := append(locomoInputs(c.rng), rpcInputs(c.rng)...)
	c.inputs(ins)

	// Kills during convert: two RealPersonaChat inputs large enough to take
	// about a second each.
	var bigIn, bigRef [2]string
	for k := range 2 {
		bigIn[k] = filepath.Join(abs, fmt.Sprintf("big-%d.jsonl", k))
		os.WriteFile(bigIn[k], rpcJSONL(genRPC(c.rng, 1500, 10, 40)), 0o600)
		bigRef[k] = filepath.Join(abs, fmt.Sprintf("big-%d-ref", k))
	}
	var took time.Duration
	for k := range 2 {
		t0 := time.Now()
		if r := execute(c.timeout, c.bin, "datasets", "convert", "realpersonachat", bigIn[k], bigRef[k], "--per-user", "--users", "4"); r.code != 0 {
			fail("reference conversion: %s", r.stderr)
		}
		took = max(took, time.Since(t0))
	}
	c.kills("convert", *kills, bigRef, func(k int, out string) []string {
		return []string{"datasets", "convert", "realpersonachat", bigIn[k], out, "--per-user", "--users", "4"}
	}, took*11/10)
	c.pairs(*pairs, bigIn, bigRef)

	// Kills during benchmark: two small converted LoCoMo folders.
	var data, benchRef [2]string
	for k := range 2 {
		in := filepath.Join(abs, fmt.Sprintf("bench-%d.json", k))
		os.WriteFile(in, locoJSON(genLoCoMo(c.rng, 3)), 0o600)
		data[k] = filepath.Join(abs, fmt.Sprintf("bench-%d-data", k))
		if r := execute(c.timeout, c.bin, "datasets", "convert", "locomo", in, data[k], "--per-user"); r.code != 0 {
			fail("converting for benchmark: %s", r.stderr)
		}
	}
	took = 0
	for k := range 2 {
		benchRef[k] = filepath.Join(abs, fmt.Sprintf("bench-%d-ref", k))
		t0 := time.Now()
		if r := execute(c.timeout, c.bin, "benchmark", "--quiet", "--data", data[k], "--work", data[k]+".work", "--out", benchRef[k]); r.code != 0 {
			fail("reference benchmark: %s", r.stderr)
		}
		took = max(took, time.Since(t0))
	}
	c.kills("benchmark", max(1, *kills/3), benchRef, func(k int, out string) []string {
		return []string{"benchmark", "--quiet", "--data", data[k], "--work", data[k] + ".work", "--out", out}
	}, took*11/10)

	c.flags()

	total := map[outcome]int{}
	fmt.Printf("%-34s", "group")
	for _, o := range outcomes {
		fmt.Printf(" %9.9s", o)
	}
	fmt.Println()
	cases := 0
	for _, g := range c.t.groups {
		fmt.Printf("%-34s", g)
		for _, o := range outcomes {
			fmt.Printf(" %9d", c.t.counts[g][o])
			total[o] += c.t.counts[g][o]
			cases += c.t.counts[g][o]
		}
		fmt.Println()
	}
	fmt.Printf("%-34s", "total")
	for _, o := range outcomes {
		fmt.Printf(" %9d", total[o])
	}
	fmt.Printf("\n\n%d generated inputs, %d kills (%d convert, %d benchmark), %d concurrent pairs, %d cases in all, seed %d, %s\n",
		len(ins), *kills+max(1, *kills/3), *kills, max(1, *kills/3), *pairs, cases, *seed, time.Since(start).Round(time.Second))
	for _, g := range []string{"convert", "benchmark"} {
		fmt.Printf("%s kills: %d left the earlier result, %d the complete new one\n", g, c.killed[g][0], c.killed[g][1])
	}
	for _, o := range outcomes {
		fmt.Printf("%s: %d\n", o, total[o])
	}
	for _, e := range c.t.examples {
		fmt.Println("  " + e)
	}
	if total[silentWrong]+total[panicked]+total[hung]+total[outside] > 0 {
		os.Exit(1)
	}
}

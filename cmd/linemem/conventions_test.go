package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
)

// runCode executes the CLI in-process and returns its exit code and streams.
func runCode(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = runMain(&environment{stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

// commandNames lists every registered command, sorted.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// createsDatabase names the commands whose job is to create the --db file.
var createsDatabase = map[string]bool{"ingest": true, "reproduce": true}

// usesNoDatabase names the commands that ignore --db: they generate their
// own data (synth) or a database per synthetic seed (robustness).
var usesNoDatabase = map[string]bool{"synth": true, "robustness": true}

// TestEveryCommandParsesFlagsAnywhere checks, for every registered command,
// that a flag written after a positional argument is read as a flag (--help
// after it prints the usage to stdout and exits 0; an unknown flag after it is a usage
// error, exit 2, reported once), and that -h works too.
func TestEveryCommandParsesFlagsAnywhere(t *testing.T) {
	for _, name := range commandNames() {
		words := strings.Fields(name)
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCode(append(words, "POSITIONAL", "--help")...)
			if code != 0 || !strings.Contains(stdout, "Usage: linemem "+name) || stderr != "" {
				t.Errorf("%s POSITIONAL --help: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout (it pages), nothing on stderr", name, code, stdout, stderr)
			}
			code, _, stderr = runCode(append(words, "POSITIONAL", "--no-such-flag")...)
			if code != 2 || strings.Count(stderr, "no-such-flag") != 1 {
				t.Errorf("%s POSITIONAL --no-such-flag: exit %d, stderr %q; want 2 and the error once", name, code, stderr)
			}
			code, _, stderr = runCode(append(words, "--no-such-flag=1")...)
			if code != 2 || strings.Count(stderr, "no-such-flag") != 1 || strings.Contains(stderr, "Usage:") {
				t.Errorf("%s --no-such-flag=1: exit %d, stderr %q; want 2, the error once and no usage dump", name, code, stderr)
			}
		})
	}
}

// TestEveryCommandLeavesAMissingDatabaseAlone runs every command that reads
// a database against a path that does not exist: it must fail and create no
// file. Arguments that get each command past its own usage checks come from
// readerArgs; a command without an entry runs with --db alone, which must
// fail just the same.
func TestEveryCommandLeavesAMissingDatabaseAlone(t *testing.T) {
	dir := t.TempDir()
	questions := filepath.Join(dir, "q.jsonl")
	qrels := filepath.Join(dir, "qrels.txt")
	os.WriteFile(questions, []byte(`{"qid":"q1","question":"締切","type":"contextual"}`+"\n"), 0o644)
	os.WriteFile(qrels, []byte("q1 0 c1 2\n"), 0o644)
	readerArgs := map[string][]string{
		"search":           {"締切"},
		"eval":             {"--questions", questions, "--qrels", qrels, "--retriever", "raw_text_bm25"},
		"sweep":            {"--questions", questions, "--qrels", qrels},
		"embed":            {"--provider", "lsa", "--rep", "raw_text"},
		"summarize":        {"--provider", "file", "--summaries", conformance.Path("summaries.jsonl")},
		"summaries import": {conformance.Path("summaries.jsonl")},
		"vectors import":   {"--rep", "summary", "--model", "m", conformance.Path("vectors_summary.jsonl")},
		"gold resolve":     {"--evidence", filepath.Join("..", "..", "data", "synthetic", "evidence.jsonl"), "--out", filepath.Join(dir, "out.qrels")},
		"questions draft":  {"--provider", "file", "--from", workbenchFile("evidence.jsonl"), "--out", filepath.Join(dir, "c.jsonl")},
	}
	for _, name := range commandNames() {
		if createsDatabase[name] || usesNoDatabase[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			db := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".db")
			args := append(strings.Fields(name), readerArgs[name]...)
			code, _, stderr := runCode(append(args, "--db", db)...)
			if code == 0 {
				t.Errorf("%s --db MISSING: exit 0, want a failure", name)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("%s --db MISSING created %s (stderr %q)", name, db, stderr)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runCode("--version")
	if code != 0 || !regexp.MustCompile(`^linemem \S+ \(commit \S+\)\n$`).MatchString(stdout) {
		t.Errorf("--version: exit %d, %q; want 0 and `linemem VERSION (commit HASH)`", code, stdout)
	}
}

func TestOneDashLongFlags(t *testing.T) {
	fs := newFlagSet(&environment{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}, &command{name: "x"}, new(string))
	k := fs.Int("k", 5, "")
	pos, err := parseInterspersed(fs, []string{"-k", "3", "q", "--", "-k"})
	if err != nil || *k != 3 || strings.Join(pos, "|") != "q|-k" {
		t.Errorf("k %d, positional %q, err %v; want 3, [q -k], nil", *k, pos, err)
	}
}

// TestSearchFlagsAfterTheQuestion is the report of issue 11 item 7: flags
// written after the question are flags, not words of the question.
func TestSearchFlagsAfterTheQuestion(t *testing.T) {
	db := filepath.Join(t.TempDir(), "conf.db")
	run(t, "ingest", "--db", db, conformance.Path("sources"))
	out := run(t, "search", "--db", db, "数学のテスト", "--k", "1", "--json")
	var got searchJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got.Query != "数学のテスト" || len(got.Results) != 1 {
		t.Errorf("query %q with %d results, want 数学のテスト with 1", got.Query, len(got.Results))
	}
	for _, k := range []string{"0", "-1", "201"} {
		if code, _, stderr := runCode("search", "--db", db, "数学のテスト", "--k", k); code != 2 {
			t.Errorf("--k %s: exit %d (%s), want 2", k, code, stderr)
		}
	}
}

// TestIngestOfOnlyBadInputsCreatesNoDatabase: an ingest where every input
// fails stores nothing, so it leaves no file behind.
func TestIngestOfOnlyBadInputsCreatesNoDatabase(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("this is not a LINE export\n"), 0o644)
	db := filepath.Join(dir, "me.db")
	if code, _, _ := runCode("ingest", "--db", db, bad); code == 0 {
		t.Fatalf("ingest of a bad file: exit 0")
	}
	if entries, _ := filepath.Glob(db + "*"); len(entries) > 0 {
		t.Errorf("ingest where every input failed left %v", entries)
	}
}

// TestCommandGroupsListTheirSubcommands: `linemem gold`, `linemem gold
// --help` and a mistyped `linemem gold exprot` name the gold commands.
func TestCommandGroupsListTheirSubcommands(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		toStdout bool
	}{
		{[]string{"gold"}, 2, false},
		{[]string{"gold", "--help"}, 0, true},
		{[]string{"gold", "exprot"}, 2, false},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCode(tt.args...)
		listing := stderr
		if tt.toStdout {
			listing = stdout
		}
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d", tt.args, code, tt.code)
		}
		for _, sub := range []string{"gold agreement", "gold export", "gold judgments", "gold pool", "gold resolve"} {
			if !strings.Contains(listing, sub) {
				t.Errorf("%v: %q missing from %q", tt.args, sub, listing)
			}
		}
	}
	if code, _, stderr := runCode("nosuch"); code != 2 || !strings.Contains(stderr, `unknown command "nosuch"`) {
		t.Errorf("nosuch: exit %d, %q", code, stderr)
	}
}

// TestDidYouMean checks the hints for a mistyped command or flag and -v.
func TestDidYouMean(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serch", "塾"}, 2, `unknown command "serch"; did you mean "search"?`},
		{[]string{"search", "--retreiver", "x", "q"}, 2, `unknown flag: --retreiver; did you mean "--retriever"?`},
		{[]string{"xyzzy"}, 2, `unknown command "xyzzy"; run`},
	}
	for _, c := range cases {
		code, _, stderr := runCode(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	if code, stdout, _ := runCode("-v"); code != 0 || !strings.HasPrefix(stdout, "linemem ") {
		t.Errorf("-v: exit %d, %q; want the version line", code, stdout)
	}
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/memory"
)

// ingestSideRun runs linemem in-process and returns its exit code and output.
func ingestSideRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runMain(&environment{stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

// ingestSideMust runs linemem and fails the test unless it exits 0.
func ingestSideMust(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := ingestSideRun(t, args...)
	if code != 0 {
		t.Fatalf("linemem %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, stdout, stderr)
	}
	return stdout
}

// ingestSideCopy copies the named conformance sources into a fresh folder.
func ingestSideCopy(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		data, err := os.ReadFile(conformance.Path("sources", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func ingestSideDB(t *testing.T) string { return filepath.Join(t.TempDir(), "linemem.db") }

func TestIngestConformance(t *testing.T) {
	db := ingestSideDB(t)
	want, err := os.ReadFile(conformance.Path("expected_chunks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := ingestSideMust(t, "ingest", "--db", db, conformance.Path("sources"))
	if !strings.Contains(out, "3 added, 0 replaced, 0 unchanged") {
		t.Errorf("first ingest said:\n%s", out)
	}
	if got := ingestSideMust(t, "chunks", "--jsonl", "--db", db); got != string(want) {
		t.Errorf("chunks --jsonl differs from expected_chunks.jsonl:\n%s", got)
	}

	t.Run("re-ingesting unchanged sources changes nothing and says so", func(t *testing.T) {
		out := ingestSideMust(t, "ingest", "--db", db, conformance.Path("sources"))
		if strings.Count(out, "\nunchanged ")+strings.Count(out[:10], "unchanged ") != 3 || !strings.Contains(out, "0 added, 0 replaced, 3 unchanged") {
			t.Errorf("re-ingest said:\n%s", out)
		}
		if got := ingestSideMust(t, "chunks", "--jsonl", "--db", db); got != string(want) {
			t.Error("chunks changed after an unchanged re-ingest")
		}
	})
	t.Run("other chunking flags replace", func(t *testing.T) {
		db := ingestSideDB(t)
		ingestSideMust(t, "ingest", "--db", db, conformance.Path("sources", "family.json"))
		out := ingestSideMust(t, "ingest", conformance.Path("sources", "family.json"), "--window", "10", "--db", db)
		// Window 10, stride 36 over one 16-message session: [0,10), then [36,…) is past the end.
		if !strings.Contains(out, "replaced  family.json: 16 messages, 1 chunk") {
			t.Errorf("ingest with --window 10 said:\n%s", out)
		}
	})
}

func TestIngestChangedFile(t *testing.T) {
	dir := ingestSideCopy(t, "family.json", "chat_sakura.json")
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, dir)
	path := filepath.Join(dir, "family.json")
	data, _ := os.ReadFile(path)
	edited := bytes.ReplaceAll(data, []byte("電話しとくね"), []byte("あとで電話する"))
	if bytes.Equal(edited, data) {
		t.Fatal("fixture text not found")
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	out := ingestSideMust(t, "ingest", "--db", db, dir)
	if !strings.Contains(out, "unchanged chat_sakura.json") || !strings.Contains(out, "replaced  family.json") {
		t.Errorf("ingest after an edit said:\n%s", out)
	}
	chunks := ingestSideMust(t, "chunks", "--jsonl", "--db", db)
	var family strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(chunks), "\n") {
		var c struct {
			Source  string `json:"source"`
			RawText string `json:"raw_text"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		if c.Source == "family.json" {
			family.WriteString(c.RawText)
		}
	}
	if !strings.Contains(family.String(), "あとで電話する") || strings.Contains(family.String(), "電話しとくね") {
		t.Errorf("family.json chunks do not reflect the edit:\n%s", family.String())
	}

	t.Run("a file that no longer parses keeps what was stored", func(t *testing.T) {
		if err := os.WriteFile(path, []byte(`{"2024-05-05": [{"time": 930}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := ingestSideRun(t, "ingest", "--db", db, path)
		if code != 1 || !strings.Contains(stderr, "family.json:1: expected") {
			t.Errorf("exit %d, stderr %q; want 1 and family.json:1: expected …", code, stderr)
		}
		if got := ingestSideMust(t, "chunks", "--jsonl", "--db", db); got != chunks {
			t.Error("a failed ingest changed the stored chunks")
		}
	})
}

func TestIngestFolderWithBadFiles(t *testing.T) {
	dir := ingestSideCopy(t, "family.json")
	sub := filepath.Join(dir, "more")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(dir, "broken.json"):   "{\"2024-01-14\": [\n{\"text\": \"unterminated\"\n",
		filepath.Join(sub, "array.json"):    `[{"text": "top-level array"}]`,
		filepath.Join(sub, "notes.md"):      "not an export: skipped",
		filepath.Join(sub, "family.json"):   `{"2024-01-14": []}`, // same source name as ../family.json
		filepath.Join(dir, "nohead.txt"):    "2024/01/14(日)\n10:00\tA\thello\n",
		filepath.Join(sub, "good_one.json"): `{"2024-01-14": [{"time": "10:00", "sender": "A", "text": "hi"}]}`,
	}
	for path, content := range files {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := ingestSideDB(t)
	code, stdout, stderr := ingestSideRun(t, "ingest", "--db", db, dir)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"broken.json:", "array.json:1: expected", "nohead.txt:1: expected", "source name family.json is already taken"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "notes.md") {
		t.Errorf("a non-export file was read:\n%s", stderr)
	}
	if !strings.Contains(stdout, "added     family.json") || !strings.Contains(stdout, "added     good_one.json") ||
		!strings.Contains(stdout, "2 added, 0 replaced, 0 unchanged, 4 failed") {
		t.Errorf("stdout:\n%s", stdout)
	}
	var stats struct{ Sources int }
	if err := json.Unmarshal([]byte(ingestSideMust(t, "stats", "--json", "--db", db)), &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Sources != 2 {
		t.Errorf("stored %v sources, want the 2 good ones", stats.Sources)
	}
}

func TestIngestUsage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no path", []string{"ingest", "--db", "x.db"}, 2, "no PATH"},
		{"missing path", []string{"ingest", "--db", "DB", "/nonexistent/export.json"}, 1, "/nonexistent/export.json"},
		{"empty folder", []string{"ingest", "--db", "DB", "EMPTY"}, 1, "no .json or .txt exports"},
		{"invalid window", []string{"ingest", "--db", "DB", "--window", "0", "EMPTY"}, 2, "--window must be between 1 and"},
		{"unknown flag", []string{"ingest", "--db", "DB", "--windw", "3", "EMPTY"}, 2, "windw"},
		{"help", []string{"ingest", "--help"}, 0, "-gap-minutes N"},
		{"help as a command", []string{"help", "ingest"}, 0, "-gap-minutes N"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, empty := ingestSideDB(t), t.TempDir()
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.NewReplacer("DB", db, "EMPTY", empty).Replace(a)
			}
			code, stdout, stderr := ingestSideRun(t, args...)
			says := stderr
			if tc.wantCode == 0 { // the usage asked for goes to stdout
				says = stdout
			}
			if code != tc.wantCode || !strings.Contains(says, tc.wantErr) {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d mentioning %q", code, stdout, stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
}

// Lossless mode leaves no conformance message in no chunk; the paper's rule
// leaves some (the pack exercises trimming).
func TestIngestLossless(t *testing.T) {
	uncovered := func(args ...string) int {
		db := ingestSideDB(t)
		ingestSideMust(t, append([]string{"ingest", conformance.Path("sources"), "--db", db}, args...)...)
		var stats struct {
			Uncovered int `json:"uncovered_messages"`
		}
		if err := json.Unmarshal([]byte(ingestSideMust(t, "stats", "--json", "--db", db)), &stats); err != nil {
			t.Fatal(err)
		}
		return stats.Uncovered
	}
	if n := uncovered(); n == 0 {
		t.Error("paper rule: no uncovered messages in the conformance pack")
	}
	if n := uncovered("--lossless"); n != 0 {
		t.Errorf("--lossless: %v uncovered messages", n)
	}
}

// conformanceCounts derives messages, chunks and uncovered messages from the
// pack's expected files.
func conformanceCounts(t *testing.T) (messages, chunks, uncovered int) {
	t.Helper()
	covered := map[string]bool{}
	for _, c := range conformance.ExpectedChunks(t) {
		chunks++
		for _, id := range c.MessageIDs {
			covered[id] = true
		}
	}
	for _, m := range conformance.ExpectedMessages(t) {
		messages++
		if !covered[m.MessageID] {
			uncovered++
		}
	}
	return messages, chunks, uncovered
}

func ingestSideLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

func TestParseInterspersed(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		wantPos    []string
		wantWindow int
	}{
		{"empty", nil, nil, 42},
		{"flags first", []string{"--window", "3", "a", "b"}, []string{"a", "b"}, 3},
		{"flags after", []string{"a", "--window", "3", "b"}, []string{"a", "b"}, 3},
		{"double dash", []string{"a", "--", "--window", "b"}, []string{"a", "--window", "b"}, 42},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := newFlagSet(&environment{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}, &command{name: "x"}, new(string))
			window := fs.Int("window", 42, "")
			got, err := parseInterspersed(fs, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(tc.wantPos, "|") || *window != tc.wantWindow {
				t.Errorf("positional %q, window %d; want %q, %d", got, *window, tc.wantPos, tc.wantWindow)
			}
		})
	}
}

// TestIngestBuildsEverydayIndex checks that ingest leaves the everyday
// search's BM25 index in the derived folder, so the first search reads it
// instead of building it, and that a search then uses it as current.
func TestIngestBuildsEverydayIndex(t *testing.T) {
	db := filepath.Join(t.TempDir(), "me.db")
	_, _, stderr := ingestSideRun(t, "ingest", "--db", db, filepath.Join("..", "..", "testdata", "mixed", "sources"))
	idx := filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".derived", "bm25-raw_text-"+memory.DefaultTokenizer+".idx")
	fi, err := os.Stat(idx)
	if err != nil || fi.Size() == 0 {
		t.Fatalf("after ingest: %v (stderr %q)", err, stderr)
	}
	ingestSideMust(t, "search", "--db", db, "lunch")
	if after, err := os.Stat(idx); err != nil || !after.ModTime().Equal(fi.ModTime()) {
		t.Errorf("the first search rewrote the index ingest built: %v", err)
	}
}

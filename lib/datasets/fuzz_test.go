package datasets_test

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
)

// checkConverted holds the properties every reader's output has, whatever
// its input: an error is an *inputerr.Error naming the file; a folder that
// is read builds, and every file it would write is a clean relative path
// inside the data folder, one per source, with one users/ folder per user.
func checkConverted(t *testing.T, f *datasets.Folder, noAnswerUser []string, err error) {
	t.Helper()
	if err != nil {
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Line < 1 {
			t.Fatalf("error %v is not an *inputerr.Error with a line", err)
		}
		return
	}
	b, err := f.Build()
	if err != nil {
		return // an evidence turn the render limit trimmed is reported, not a defect of the reader
	}
	for name := range b.Files {
		if name != path.Clean(name) || strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/") || strings.Contains(name, "\x00") {
			t.Fatalf("file %q would be written outside the data folder", name)
		}
	}
	sources := 0
	for name := range b.Files {
		if strings.HasPrefix(name, datafolder.SourcesDir+"/") {
			sources++
		}
	}
	if sources != len(f.Sources) {
		t.Fatalf("%d source files for %d sources: two sources share a file", sources, len(f.Sources))
	}
	seen := map[string]bool{}
	for _, sub := range f.Split(noAnswerUser) {
		dir := filepath.Join(datafolder.UsersDir, sub.Info.Users[0])
		if seen[dir] || filepath.Base(dir) != sub.Info.Users[0] || strings.ContainsAny(sub.Info.Users[0], " \t\n/\\") {
			t.Fatalf("user %q does not get a folder of its own", sub.Info.Users[0])
		}
		seen[dir] = true
	}
}

func writeInput(t *testing.T, name string, data []byte) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// FuzzReadLoCoMo: ReadLoCoMo never panics, and what it reads has the
// properties of checkConverted.
func FuzzReadLoCoMo(f *testing.F) {
	seed, err := os.ReadFile("testdata/locomo_small.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(locomoDoc(`"../../x"`, turnA, turnB, qaOK)))
	f.Add([]byte(locomoDoc(`"c"`, `{"speaker": "Ann", "dia_id": "D1:3", "text": "a"}`, `{"speaker": "Bob", "dia_id": "D1:03", "text": "b"}`, qaOK)))
	f.Add([]byte(locomoDoc(`"c"`, turnA, turnB, qaOK) + "[]"))
	f.Add([]byte("[]"))
	f.Add([]byte("\xef\xbb\xbf[]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		f, noAnswer, err := datasets.ReadLoCoMo(writeInput(t, "locomo10.json", data))
		checkConverted(t, f, noAnswer, err)
	})
}

// FuzzReadRealPersonaChat: ReadRealPersonaChat never panics, and what it
// reads has the properties of checkConverted.
func FuzzReadRealPersonaChat(f *testing.F) {
	seed, err := os.ReadFile("testdata/rpc_small.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(rpcLine(1, "AA", "AB", 1) + rpcLine(2, "A-B", "C", 1) + rpcLine(3, "A", "B-C", 1)))
	f.Add([]byte(rpcLine(1, "AA", "..", 1)))
	f.Add([]byte(rpcLine(1, "AA", "AB", 0)))
	f.Add([]byte(`{"dialogue_id":1,"interlocutors":["AA","AB"],"utterances":[{"utterance_id":0,"interlocutor_id":"AA","text":"x","timestamp":"NaT"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		f, noAnswer, err := datasets.ReadRealPersonaChat(writeInput(t, "dialogues.jsonl", data), datasets.RPCOptions{Users: 3, Questions: 2})
		checkConverted(t, f, noAnswer, err)
	})
}

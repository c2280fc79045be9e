package datafolder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/datafolder"
)

const (
	questionLine = `{"qid":"q1","question":"花見はいつ？","type":"contextual"}` + "\n"
	qrelsLine    = "q1 0 c1 2\n"
	evidenceLine = `{"qid":"q1","question":"花見はいつ？","type":"contextual","evidence":[{"source":"a.json","date":"2024-04-01","time":"10:00","sender":"自分","text_prefix":"花見","role":"answer"}]}` + "\n"
	exportFile   = `{"2024-04-01": [{"time":"10:00:00","sender":"自分","type":"text","text":"花見に行こう"}]}` + "\n"
)

// folder writes files (path → content) into a fresh folder.
func folder(t *testing.T, files map[string]string) datafolder.Folder {
	t.Helper()
	dir := t.TempDir()
	bs := map[string][]byte{}
	for name, text := range files {
		bs[name] = []byte(text)
	}
	if err := datafolder.WriteFiles(dir, bs); err != nil {
		t.Fatal(err)
	}
	return datafolder.Folder(dir)
}

func TestQuestionSet(t *testing.T) {
	cases := []struct {
		name      string
		files     map[string]string
		qrels     bool // qrels read as shipped
		evidence  bool // evidence read, to resolve
		files2    []string
		wantError string
	}{
		{"qrels", map[string]string{datafolder.QuestionsFile: questionLine, datafolder.QrelsFile: qrelsLine, datafolder.EvidenceFile: evidenceLine},
			true, false, []string{datafolder.QuestionsFile, datafolder.QrelsFile}, ""},
		{"evidence only", map[string]string{datafolder.QuestionsFile: questionLine, datafolder.EvidenceFile: evidenceLine},
			false, true, []string{datafolder.QuestionsFile, datafolder.EvidenceFile}, ""},
		{"no gold", map[string]string{datafolder.QuestionsFile: questionLine}, false, false, nil, "neither qrels.txt nor evidence.jsonl"},
		{"no questions", map[string]string{datafolder.QrelsFile: qrelsLine}, false, false, nil, datafolder.QuestionsFile},
		{"a qrels qid that is no question", map[string]string{datafolder.QuestionsFile: questionLine, datafolder.QrelsFile: "q9 0 c1 2\n"},
			false, false, nil, "qrels.txt:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := folder(t, c.files)
			set, err := f.QuestionSet()
			if c.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantError) {
					t.Fatalf("error %v, want one naming %q", err, c.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Questions) != 1 || set.Questions[0].QID != "q1" {
				t.Errorf("questions %+v, want q1", set.Questions)
			}
			if (set.Qrels != nil) != c.qrels || (set.Evidence != nil) != c.evidence {
				t.Errorf("qrels %v, evidence %v; want qrels %v, evidence %v", set.Qrels, set.Evidence, c.qrels, c.evidence)
			}
			var want []string
			for _, name := range c.files2 {
				want = append(want, f.Path(name))
			}
			if !slices.Equal(set.Files, want) {
				t.Errorf("files read %v, want %v", set.Files, want)
			}
		})
	}
}

func TestSources(t *testing.T) {
	f := folder(t, map[string]string{datafolder.SourcesDir + "/b.json": exportFile, datafolder.SourcesDir + "/a.json": exportFile, "notes.md": "x"})
	inputs, err := f.Sources()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range inputs {
		names = append(names, filepath.Base(in.Path))
	}
	if !slices.Equal(names, []string{"a.json", "b.json"}) {
		t.Errorf("sources %v, want a.json b.json in name order", names)
	}
	empty := folder(t, map[string]string{datafolder.QuestionsFile: questionLine})
	if _, err := empty.Sources(); err == nil {
		t.Error("a folder without sources/: no error")
	}
}

func TestEvidence(t *testing.T) {
	ev, ok, err := folder(t, map[string]string{datafolder.EvidenceFile: evidenceLine}).Evidence()
	if err != nil || !ok || len(ev) != 1 || ev[0].QID != "q1" {
		t.Errorf("Evidence = %v, %v, %v; want q1's, true, nil", ev, ok, err)
	}
	ev, ok, err = folder(t, map[string]string{}).Evidence()
	if err != nil || ok || ev != nil {
		t.Errorf("Evidence without the file = %v, %v, %v; want nil, false, nil", ev, ok, err)
	}
}

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"b/c.txt": []byte("c"), "a.txt": []byte("a"), datafolder.QuestionsFile: []byte(questionLine)}
	if err := datafolder.WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		got, err := os.ReadFile(path)
		if err != nil || string(got) != string(want) {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
			t.Errorf("%s mode %v, want 0644", name, info.Mode().Perm())
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(got) != "kept" {
		t.Error("WriteFiles touched a file it was not given")
	}
	if got, want := datafolder.FileNames(files), []string{"a.txt", "b/c.txt", datafolder.QuestionsFile}; !slices.Equal(got, want) {
		t.Errorf("FileNames = %v, want %v (byte order)", got, want)
	}
}

// A data folder's questions and gold, read as linemem reproduce reads them:
// qrels.txt as shipped, so evidence.jsonl is left for later.
func ExampleFolder_QuestionSet() {
	dir, err := os.MkdirTemp("", "datafolder")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	err = datafolder.WriteFiles(dir, map[string][]byte{
		datafolder.QuestionsFile: []byte(questionLine),
		datafolder.QrelsFile:     []byte(qrelsLine),
		datafolder.EvidenceFile:  []byte(evidenceLine),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	set, err := datafolder.Folder(dir).QuestionSet()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, path := range set.Files {
		fmt.Println("read", filepath.Base(path))
	}
	fmt.Println(set.Questions[0].QID, set.Qrels["q1"], set.Evidence == nil)
	// Output:
	// read questions.jsonl
	// read qrels.txt
	// q1 map[c1:2] true
}

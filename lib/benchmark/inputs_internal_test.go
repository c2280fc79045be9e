package benchmark

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/datafolder"
)

// writeFolder writes a converted folder's files into dir with questions
// lines of questions.jsonl (dataset.json too when pooled).
func writeFolder(t *testing.T, dir string, questions int, pooled bool) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, datafolder.SourcesDir), 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		datafolder.QuestionsFile: strings.Repeat("{\"qid\":\"q\"}\n", questions),
		datafolder.QrelsFile:     "",
		datafolder.SummariesFile: "",
	}
	if pooled {
		files[datafolder.DatasetFile] = "{}\n"
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCheckFolder(t *testing.T) {
	data := t.TempDir()
	writeFolder(t, data, 3, true)
	for name, n := range map[string]int{"u1": 2, "u2": 0, "u3": 1} {
		writeFolder(t, filepath.Join(data, datafolder.UsersDir, name), n, false)
	}
	users, skipped, err := checkFolder(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(data, datafolder.UsersDir, "u1"), filepath.Join(data, datafolder.UsersDir, "u3")}
	if !slices.Equal(users, want) || !slices.Equal(skipped, []string{"u2"}) {
		t.Errorf("users %v, skipped %v; want %v, [u2]", users, skipped, want)
	}

	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, data string)
		want  string
	}{
		{"no answerable pooled question", func(t *testing.T, data string) { writeFolder(t, data, 0, true) }, "no answerable question"},
		{"no dataset.json", func(t *testing.T, data string) { writeFolder(t, data, 1, false) }, datafolder.DatasetFile},
		{"no user folders", func(t *testing.T, data string) { writeFolder(t, data, 1, true) }, "--per-user"},
		{"no user with a question", func(t *testing.T, data string) {
			writeFolder(t, data, 1, true)
			writeFolder(t, filepath.Join(data, datafolder.UsersDir, "u1"), 0, false)
		}, "no user has an answerable question"},
		{"a user without sources", func(t *testing.T, data string) {
			writeFolder(t, data, 1, true)
			u := filepath.Join(data, datafolder.UsersDir, "u1")
			writeFolder(t, u, 1, false)
			if err := os.Remove(filepath.Join(u, datafolder.SourcesDir)); err != nil {
				t.Fatal(err)
			}
		}, "no " + datafolder.SourcesDir + "/ folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			tc.setup(t, data)
			if _, _, err := checkFolder(data); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}

// The copies hold every regular file of each user folder, owner-only.
func TestCopyUserFolders(t *testing.T) {
	data := t.TempDir()
	user := filepath.Join(data, "u1")
	writeFolder(t, user, 1, false)
	into := filepath.Join(t.TempDir(), "users")
	copies, err := copyUserFolders([]string{user}, into)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(into, "u1")}; !slices.Equal(copies, want) {
		t.Fatalf("copies %v, want %v", copies, want)
	}
	info, err := os.Stat(filepath.Join(copies[0], datafolder.QuestionsFile))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("copied questions are %v, want 0600", info.Mode().Perm())
	}
}

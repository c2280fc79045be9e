package benchmark

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/regularfile"
)

// checkFolder checks the data folder Run reads: a converted
// data set (dataset.json, sources/, questions.jsonl with at least one
// question, qrels.txt, summaries.jsonl) with per-user folders of the same
// layout. It returns the user folders with at least one answerable question
// and the names of those without any (a converter writes an empty
// questions.jsonl for a user whose questions are all no-answer ones), which
// are skipped.
func checkFolder(data string) (users, skipped []string, err error) {
	if _, err := answerableQuestions(data, true); err != nil {
		return nil, nil, err
	}
	dirs, err := UserDirs(data)
	if err != nil {
		return nil, nil, err
	}
	for _, dir := range dirs {
		n, err := answerableQuestions(dir, false)
		if err != nil {
			return nil, nil, err
		}
		if n == 0 {
			skipped = append(skipped, filepath.Base(dir))
			continue
		}
		users = append(users, dir)
	}
	if len(users) == 0 {
		return nil, nil, fmt.Errorf("%s: no user has an answerable question", filepath.Join(data, datafolder.UsersDir))
	}
	return users, skipped, nil
}

// answerableQuestions checks that dir holds the files of a converted data
// folder (dataset.json too when pooled) as regular files and counts the
// non-blank lines of its questions.jsonl; the pooled folder must have one.
func answerableQuestions(dir string, pooled bool) (int, error) {
	files := []string{datafolder.QuestionsFile, datafolder.QrelsFile, datafolder.SummariesFile}
	if pooled {
		files = append(files, datafolder.DatasetFile)
	}
	for _, f := range files {
		if err := regularfile.Check(filepath.Join(dir, f)); err != nil {
			return 0, fmt.Errorf("%w (a folder written by `linemem datasets convert … --per-user`)", err)
		}
	}
	if info, err := os.Stat(filepath.Join(dir, datafolder.SourcesDir)); err != nil || !info.IsDir() {
		return 0, fmt.Errorf("%s: no %s/ folder (a folder written by `linemem datasets convert … --per-user`)", dir, datafolder.SourcesDir)
	}
	b, err := regularfile.ReadFile(filepath.Join(dir, datafolder.QuestionsFile))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) != "" {
			n++
		}
	}
	if pooled && n == 0 {
		return 0, fmt.Errorf("%s: no answerable question", filepath.Join(dir, datafolder.QuestionsFile))
	}
	return n, nil
}

// copyUserFolders copies each user folder of dirs into a fresh folder of
// the same name under into (files 0600: they hold conversation text) and
// returns the copies, so that the vectors Run ships to each user are
// written there and never into the data folder.
func copyUserFolders(dirs []string, into string) ([]string, error) {
	if err := os.RemoveAll(into); err != nil {
		return nil, err
	}
	var out []string
	for _, dir := range dirs {
		dst := filepath.Join(into, filepath.Base(dir))
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			target := filepath.Join(dst, rel)
			if d.IsDir() {
				return os.MkdirAll(target, 0o700)
			}
			if !d.Type().IsRegular() {
				return nil
			}
			b, err := regularfile.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, b, 0o600)
		})
		if err != nil {
			return nil, err
		}
		out = append(out, dst)
	}
	return out, nil
}

// UserDirs lists the per-user data folders of a converted folder
// (dataDir/users/*), in name order; none is an error naming the command
// that writes them.
func UserDirs(dataDir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dataDir, datafolder.UsersDir))
	if err != nil {
		return nil, fmt.Errorf("%w (per-user folders are written by `linemem datasets convert … --per-user`)", err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(dataDir, datafolder.UsersDir, e.Name()))
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s: no per-user folders (written by `linemem datasets convert … --per-user`)", filepath.Join(dataDir, datafolder.UsersDir))
	}
	return dirs, nil
}

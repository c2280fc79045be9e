package atomicdir_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/atomicdir"
)

// version writes n files "f000".."f(n-1)" each holding tag into dir.
func version(t testing.TB, dir, tag string, n int) {
	t.Helper()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), []byte(tag), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// state returns the tags of dir's files, sorted, or nil when dir is missing.
func state(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, string(b))
	}
	slices.Sort(tags)
	return tags
}

func repeat(tag string, n int) []string { return slices.Repeat([]string{tag}, n) }

// siblings lists the names beside target other than target itself.
func siblings(t *testing.T, target string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(target))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Name() != filepath.Base(target) {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestCommitReplacesWholeFolder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		earlier int // files of the earlier version; -1: no target
	}{
		{"new target", -1},
		{"empty target", 0},
		{"earlier version with more files", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "out")
			if tc.earlier >= 0 {
				if err := os.Mkdir(target, 0o755); err != nil {
					t.Fatal(err)
				}
				version(t, target, "old", tc.earlier)
			}
			d, err := atomicdir.Begin(target, nil)
			if err != nil {
				t.Fatal(err)
			}
			version(t, d.Path(), "new", 3)
			if err := d.Commit(); err != nil {
				t.Fatal(err)
			}
			if got := state(t, target); !slices.Equal(got, repeat("new", 3)) {
				t.Errorf("target holds %v, want 3 × new", got)
			}
			if s := siblings(t, target); len(s) != 0 {
				t.Errorf("left beside the target: %v", s)
			}
		})
	}
}

func TestAbortKeepsEarlierVersion(t *testing.T) {
	target := filepath.Join(t.TempDir(), "out")
	os.Mkdir(target, 0o755)
	version(t, target, "old", 4)
	d, err := atomicdir.Begin(target, nil)
	if err != nil {
		t.Fatal(err)
	}
	version(t, d.Path(), "new", 2)
	if err := d.Abort(); err != nil {
		t.Fatal(err)
	}
	if got := state(t, target); !slices.Equal(got, repeat("old", 4)) {
		t.Errorf("target holds %v after Abort, want 4 × old", got)
	}
	if s := siblings(t, target); len(s) != 0 {
		t.Errorf("left beside the target: %v", s)
	}
	if err := d.Abort(); err != nil {
		t.Errorf("a second Abort: %v, want nil", err)
	}
}

func TestCheckRefusesBeforeAnythingIsCreated(t *testing.T) {
	target := filepath.Join(t.TempDir(), "out")
	os.Mkdir(target, 0o755)
	version(t, target, "old", 1)
	refuse := errors.New("not an earlier result")
	if _, err := atomicdir.Begin(target, func(string) error { return refuse }); !errors.Is(err, refuse) {
		t.Fatalf("Begin = %v, want the check's error", err)
	}
	if s := siblings(t, target); len(s) != 0 {
		t.Errorf("left beside the target: %v", s)
	}
}

func TestBeginRefusesBadTargets(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, target := range []string{file, filepath.Join(dir, "missing", "out"), "/", "."} {
		if d, err := atomicdir.Begin(target, nil); err == nil {
			d.Abort()
			t.Errorf("Begin(%q) succeeded, want an error", target)
		}
	}
}

func TestSecondWriterIsRefused(t *testing.T) {
	target := filepath.Join(t.TempDir(), "out")
	first, err := atomicdir.Begin(target, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := atomicdir.Begin(target, nil); !errors.Is(err, atomicdir.ErrBusy) {
		t.Fatalf("second Begin = %v, want ErrBusy", err)
	}
	version(t, first.Path(), "first", 2)
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	second, err := atomicdir.Begin(target, nil)
	if err != nil {
		t.Fatalf("Begin after the first Commit: %v", err)
	}
	second.Abort()
}

// TestConcurrentWriters starts writers at once: each either commits a
// complete version or is refused, and the target ends as one complete
// version.
func TestConcurrentWriters(t *testing.T) {
	target := filepath.Join(t.TempDir(), "out")
	const writers, files = 8, 20
	errs := make(chan error, writers)
	for w := range writers {
		go func() {
			d, err := atomicdir.Begin(target, nil)
			if err != nil {
				errs <- err
				return
			}
			version(t, d.Path(), strconv.Itoa(w), files)
			errs <- d.Commit()
		}()
	}
	committed := 0
	for range writers {
		err := <-errs
		switch {
		case err == nil:
			committed++
		case !errors.Is(err, atomicdir.ErrBusy):
			t.Errorf("writer: %v", err)
		}
	}
	got := state(t, target)
	if committed == 0 || len(got) != files || !slices.Equal(got, repeat(got[0], files)) {
		t.Errorf("%d committed; target holds %v, want %d files of one writer", committed, got, files)
	}
}

// killHelperEnv makes the test binary a writer that replaces the target
// named by it slowly, for TestKillLeavesOldOrNew.
const killHelperEnv = "ATOMICDIR_KILL_TARGET"

func TestMain(m *testing.M) {
	if target := os.Getenv(killHelperEnv); target != "" {
		d, err := atomicdir.Begin(target, nil)
		if err != nil {
			os.Exit(3)
		}
		for i := range 40 {
			os.WriteFile(filepath.Join(d.Path(), fmt.Sprintf("f%03d", i)), []byte("new"), 0o644)
			time.Sleep(time.Millisecond)
		}
		if d.Commit() != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKillLeavesOldOrNew kills a writer with SIGKILL at seeded random
// moments: the target then holds the earlier version or the complete new
// one, and the next Begin succeeds and clears what the writer left.
func TestKillLeavesOldOrNew(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(40, 1))
	outcomes := map[string]int{}
	for i := range 12 {
		target := filepath.Join(t.TempDir(), "out")
		os.Mkdir(target, 0o755)
		version(t, target, "old", 40)
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), killHelperEnv+"="+target)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(10+rng.IntN(120)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		got := state(t, target)
		switch {
		case slices.Equal(got, repeat("old", 40)):
			outcomes["old"]++
		case slices.Equal(got, repeat("new", 40)):
			outcomes["new"]++
		default:
			t.Fatalf("kill %d: target holds %d files %v, want 40 × old or 40 × new", i, len(got), got)
		}
		d, err := atomicdir.Begin(target, nil)
		if err != nil {
			t.Fatalf("kill %d: Begin after the kill: %v", i, err)
		}
		d.Abort()
		if s := siblings(t, target); len(s) != 0 {
			t.Errorf("kill %d: left beside the target after the next Begin: %v", i, s)
		}
	}
	t.Logf("outcomes: %v", outcomes)
}

func ExampleBegin() {
	parent, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(parent)
	target := filepath.Join(parent, "converted")
	d, err := atomicdir.Begin(target, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Abort()
	os.WriteFile(filepath.Join(d.Path(), "dataset.json"), []byte("{}\n"), 0o644)
	if err := d.Commit(); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(target, "dataset.json"))
	fmt.Print(string(b))
	// Output: {}
}

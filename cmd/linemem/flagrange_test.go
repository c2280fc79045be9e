package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	flag "github.com/spf13/pflag"
)

// commandFlagSets runs every registered command with --help and returns
// the flag sets they parse, by command name.
func commandFlagSets(t *testing.T) map[string][]*flag.FlagSet {
	t.Helper()
	seen := map[string][]*flag.FlagSet{}
	flagSetSeen = func(fs *flag.FlagSet) {
		name := strings.TrimPrefix(fs.Name(), "linemem ")
		seen[name] = append(seen[name], fs)
	}
	defer func() { flagSetSeen = nil }()
	for name := range commands {
		var out, errOut bytes.Buffer
		runMain(&environment{stdout: &out, stderr: &errOut}, append(strings.Fields(name), "--help"))
	}
	return seen
}

// TestEveryNumericFlagHasARange walks every registered command's flags: a
// numeric flag (int, float, duration) without a range in flagRanges fails.
func TestEveryNumericFlagHasARange(t *testing.T) {
	seen := commandFlagSets(t)
	var missing []string
	numeric := 0
	for name, sets := range seen {
		for _, fs := range sets {
			fs.VisitAll(func(f *flag.Flag) {
				if !numericFlagTypes[f.Value.Type()] {
					return
				}
				numeric++
				if _, ok := rangeOf(name, f.Name); !ok {
					missing = append(missing, name+" --"+f.Name+" ("+f.Value.Type()+")")
				}
			})
		}
	}
	slices.Sort(missing)
	missing = slices.Compact(missing)
	if len(missing) > 0 {
		t.Errorf("numeric flags without a range in flagRanges:\n%s", strings.Join(missing, "\n"))
	}
	if numeric == 0 {
		t.Error("no numeric flag seen: the walk found no flag sets")
	}
	var without []string
	for name := range commands {
		if len(seen[name]) == 0 {
			without = append(without, name)
		}
	}
	slices.Sort(without)
	t.Logf("%d numeric flags; commands parsing no flags: %v", numeric, without)
}

// TestNumericFlagsOutOfRange: a value outside a flag's range is a usage
// error naming the flag and the range, found before any work: the database
// named by --db is not even created.
func TestNumericFlagsOutOfRange(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "none.db")
	for _, args := range [][]string{
		{"analyzers", "compare", "--bootstrap", "2000000000"},
		{"analyzers", "abstain", "--at", "-1"},
		{"analyzers", "abstain", "--at", "1.5"},
		{"analyzers", "abstain", "--at", "NaN"},
		{"analyzers", "abstain", "--at", "+Inf"},
		{"analyzers", "abstain", "--at", "-Inf"},
		{"summarize", "--max-attempts", "0"},
		{"summarize", "--max-attempts", "-1"},
		{"summarize", "--timeout", "0s"},
		{"summarize", "--timeout", "-1s"},
		{"summarize", "--interval", "-1s"},
		{"summarize", "--rpm", "-1"},
		{"summarize", "--max-output-tokens", "0"},
		{"summarize", "--price-in", "NaN"},
		{"embed", "--batch", "0"},
		{"embed", "--vocab", "0"},
		{"embed", "--provider", "lsa", "--dimensions", "-1"},
		{"ask", "--input-cap", "0", "a question"},
		{"eval-answers", "--max-output-tokens", "0"},
		{"questions", "draft", "--per-window", "0"},
		{"search", "--k", "100000", "x"},
		{"ingest", "--max-file-mib", "0", dir},
		{"mcp", "--idle-timeout", "-1s"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, code := goldCLI(append(args, "--db", db)...)
			flagName := ""
			for _, a := range args {
				if strings.HasPrefix(a, "--") && a != "--provider" {
					flagName = a
				}
			}
			if code != 2 || !strings.Contains(stderr, flagName+" must be") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and a usage error naming %s and its range", code, stdout, stderr, flagName)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("%s was created", db)
			}
		})
	}
}

// TestGoldExportOutputsDistinct: two outputs of gold export naming one file
// are refused before anything is written.
func TestGoldExportOutputsDistinct(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x")
	for _, args := range [][]string{
		{"gold", "export", "--qrels", x, "--questions-out", x},
		{"gold", "export", "--qrels", x, "--groups-out", filepath.Join(dir, ".", "x")},
	} {
		_, stderr, code := goldCLI(append(args, "--db", filepath.Join(dir, "none.db"))...)
		if code != 2 || !strings.Contains(stderr, "same file") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the two flags named", args, code, stderr)
		}
	}
}

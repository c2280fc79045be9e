package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
)

// importSideStats returns the stats --json document of db.
func importSideStats(t *testing.T, db string) statsJSON {
	t.Helper()
	var s statsJSON
	if err := json.Unmarshal([]byte(ingestSideMust(t, "stats", "--json", "--db", db)), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// importSideBadCopy writes the pack file name into a temp folder with line
// lineNo (1-based) replaced by bad, and returns its path.
func importSideBadCopy(t *testing.T, name string, lineNo int, bad string) string {
	t.Helper()
	lines := ingestSideLines(t, conformance.Path(name))
	lines[lineNo-1] = bad
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestImportCommands(t *testing.T) {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, conformance.Path("sources"))
	_, chunks, _ := conformanceCounts(t)
	summaryLines := len(ingestSideLines(t, conformance.Path("summaries.jsonl")))
	vectorLines := len(ingestSideLines(t, conformance.Path("vectors_summary.jsonl")))
	queryLines := len(ingestSideLines(t, conformance.Path("query_vectors.jsonl")))

	t.Run("summaries with a bad line import nothing", func(t *testing.T) {
		bad := importSideBadCopy(t, "summaries.jsonl", 3, `{"chunk_id": "ffffffffffffffff", "summary": "no such chunk"}`)
		code, _, stderr := ingestSideRun(t, "summaries", "import", "--db", db, bad)
		if code != 1 || !strings.Contains(stderr, bad+":3: expected") {
			t.Errorf("exit %d, stderr %q; want 1 naming %s:3", code, stderr, bad)
		}
		if s := importSideStats(t, db); s.Summaries != 0 {
			t.Errorf("%d summaries stored after a failed import", s.Summaries)
		}
	})
	t.Run("summaries", func(t *testing.T) {
		out := ingestSideMust(t, "summaries", "import", "--db", db, conformance.Path("summaries.jsonl"))
		if s := importSideStats(t, db); s.Summaries != summaryLines || s.Summaries != chunks || s.SummaryLength == nil {
			t.Errorf("stats after import: %+v (said %q)", s, out)
		}
	})
	t.Run("vectors with a wrong dimension import nothing", func(t *testing.T) {
		bad := importSideBadCopy(t, "vectors_summary.jsonl", 2, `{"key": "x", "vector": [1, 2]}`)
		code, _, stderr := ingestSideRun(t, "vectors", "import", "--rep", "summary", "--model", "m", "--db", db, bad)
		if code != 1 || !strings.Contains(stderr, bad+":2: expected") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
		if s := importSideStats(t, db); len(s.VectorSets) != 0 {
			t.Errorf("vector sets after a failed import: %+v", s.VectorSets)
		}
	})
	t.Run("chunk and query vectors", func(t *testing.T) {
		ingestSideMust(t, "vectors", "import", "--db", db, "--rep", "summary", "--model", "m", "--input-cap", "2000", conformance.Path("vectors_summary.jsonl"))
		ingestSideMust(t, "vectors", "import", conformance.Path("query_vectors.jsonl"), "--queries", "--model", "m", "--db", db)
		s := importSideStats(t, db)
		if len(s.VectorSets) != 1 || s.VectorSets[0] != (statsVectorSet{Rep: "summary", Model: "m", Dim: 16, Count: vectorLines}) {
			t.Errorf("vector sets = %+v", s.VectorSets)
		}
		if len(s.QueryVectorSets) != 1 || s.QueryVectorSets[0] != (statsVectorSet{Model: "m", Dim: 16, Count: queryLines}) {
			t.Errorf("query vector sets = %+v", s.QueryVectorSets)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no model", []string{"vectors", "import", "--rep", "summary", "F"}},
		{"no rep or queries", []string{"vectors", "import", "--model", "m", "F"}},
		{"unknown rep", []string{"vectors", "import", "--rep", "raw", "--model", "m", "F"}},
		{"queries with rep", []string{"vectors", "import", "--queries", "--rep", "summary", "--model", "m", "F"}},
		{"two files", []string{"summaries", "import", "F", "F"}},
		{"no file", []string{"summaries", "import"}},
	} {
		t.Run("usage: "+tc.name, func(t *testing.T) {
			args := append(tc.args, "--db", db)
			for i, a := range args {
				if a == "F" {
					args[i] = conformance.Path("summaries.jsonl")
				}
			}
			if code, _, stderr := ingestSideRun(t, args...); code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, stderr)
			}
		})
	}
}

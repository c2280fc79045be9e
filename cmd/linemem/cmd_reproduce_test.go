package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/experiment"
)

// TestReproduceSeedZeroIsASeed: `reproduce --seed 0` bootstraps from seed 0,
// as eval does, and the default flag is the paper's seed; Table 3's note
// states the seed its intervals were drawn from.
func TestReproduceSeedZeroIsASeed(t *testing.T) {
	tmp := t.TempDir()
	note := func(extra ...string) string {
		out := filepath.Join(tmp, strings.Join(append([]string{"out"}, extra...), "_"))
		args := append([]string{"reproduce", "--db", filepath.Join(tmp, "conf.db"), "--data", conformance.Dir(), "--out", out,
			"--bootstrap", "50", "--only", "table3", "--quiet"}, extra...)
		run(t, args...)
		b, err := os.ReadFile(filepath.Join(out, "table3_single_retrievers.md"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		flags []string
		seed  uint64
	}{{nil, experiment.PaperProtocol().Seed}, {[]string{"--seed", "0"}, 0}, {[]string{"--seed", "7"}, 7}} {
		want := fmt.Sprintf("(B = 50, seed = %d, type-7 percentiles)", c.seed)
		if got := note(c.flags...); !strings.Contains(got, want) {
			t.Errorf("reproduce %v: Table 3 does not state %q:\n%s", c.flags, want, got)
		}
	}
}

// TestReproduceOnlyRejectsAnUnknownSlugListingTheKnownOnes: --only takes a
// slug of the artefact registry; another is a usage error naming them.
func TestReproduceOnlyRejectsAnUnknownSlugListingTheKnownOnes(t *testing.T) {
	var out, errOut strings.Builder
	code := runMain(&environment{stdout: &out, stderr: &errOut}, []string{"reproduce", "--data", conformance.Dir(), "--out", t.TempDir(), "--only", "table2"})
	if code == 0 || !strings.Contains(errOut.String(), `unknown artefact "table2"`) || !strings.Contains(errOut.String(), "table1, table3") {
		t.Errorf("reproduce --only table2: exit %d, stderr %q; want a usage error listing the slugs", code, errOut.String())
	}
}

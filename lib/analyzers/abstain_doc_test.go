package analyzers_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/metrics"
)

// TestAbstainTableDocMatchesMeasurement holds memory.DefaultMinConfidence
// and the error rates `search --help` prints (memory.AbstainTableDoc) to
// the measurement that chose them, rerun on the development sets that ship
// with the repository (the blind development set, the mixed history and
// the synthetic corpus): each
// of their rows must be what MeasureEveryday gives at the threshold, and
// the threshold must be what ChooseThresholdWithin picks over them. (The
// LoCoMo row needs the converted data set; `linemem analyzers everyday
// --choose-threshold` prints it.)
func TestAbstainTableDocMatchesMeasurement(t *testing.T) {
	rows := map[string][]string{}
	for _, line := range strings.Split(memory.AbstainTableDoc, "\n")[2:] {
		f := strings.Fields(line)
		rows[f[0]] = f
	}
	var sets []analyzers.Confidences
	for _, c := range []struct{ name, dir string }{
		{"devblind", filepath.Join("..", "..", "testdata", "devblind")},
		{"mixed", filepath.Join("..", "..", "testdata", "mixed")},
		{"synthetic", filepath.Join("..", "..", "data", "synthetic")},
	} {
		run, err := analyzers.MeasureEveryday(c.name, c.dir, analyzers.EverydayOptions{Work: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, run.Confidences()...)
		r := run.EverydayRates(memory.DefaultMinConfidence)
		got := fmt.Sprintf("%.1f%% %.1f%%", 100*metrics.Mean(r[1]), 100*metrics.Mean(r[2]))
		if f, ok := rows[c.name]; !ok || strings.Join(f[1:3], " ") != got {
			t.Errorf("%s: search --help says %v, measured %s", c.name, f, got)
		}
	}
	if th := analyzers.ChooseThresholdWithin(sets, analyzers.MaxFalseAbstain); math.Abs(th.At-memory.DefaultMinConfidence) > 1e-9 {
		t.Errorf("DefaultMinConfidence is %v; the rule picks %v on the shipped development sets", memory.DefaultMinConfidence, th.At)
	}
}

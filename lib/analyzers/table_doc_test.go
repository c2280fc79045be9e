package analyzers_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/memory"
)

// TestTokenizerTableDocMatchesMeasurement holds the table `search --help`
// prints (memory.TokenizerTableDoc) to the measurement on the two corpora
// that ship with the repository, the synthetic one and the mixed-language
// history: each row's "R@5 / S@1" there must be the means Measure gives,
// at three decimals. (The LoCoMo and RealPersonaChat columns need the
// converted data sets; `linemem analyzers compare` prints them.)
func TestTokenizerTableDocMatchesMeasurement(t *testing.T) {
	var corpora []*analyzers.Corpus
	for _, c := range []struct{ name, dir string }{
		{"synthetic", filepath.Join("..", "..", "data", "synthetic")},
		{"mixed", filepath.Join("..", "..", "testdata", "mixed")},
	} {
		corpus, err := analyzers.LoadFolder(c.name, c.dir)
		if err != nil {
			t.Fatal(err)
		}
		corpora = append(corpora, corpus)
	}
	p := experiment.PaperProtocol()
	p.B = 1 // the means do not depend on the resamples
	rows := map[string][]string{}
	for _, line := range strings.Split(memory.TokenizerTableDoc, "\n")[2:] {
		f := strings.Fields(line)
		rows[f[0]] = f
	}
	var toks []string
	for tok := range rows {
		toks = append(toks, tok)
	}
	tb, err := analyzers.Measure(corpora, toks, p)
	if err != nil {
		t.Fatal(err)
	}
	cell := func(tok, corpus string) string {
		s := tb.Cells[tok][corpus].Scores
		return fmt.Sprintf("%.3f / %.3f", s[analyzers.Metrics[0]].Mean, s[analyzers.Metrics[1]].Mean)
	}
	for tok, f := range rows {
		// f: name, then four "R / S" cells of three fields each.
		got := map[string]string{"synthetic": strings.Join(f[1:4], " "), "mixed": strings.Join(f[10:13], " ")}
		for _, corpus := range []string{"synthetic", "mixed"} {
			if want := cell(tok, corpus); got[corpus] != want {
				t.Errorf("%s on %s: search --help says %s, measured %s", tok, corpus, got[corpus], want)
			}
		}
	}
}

package experiment

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/regularfile"
)

// MaxBootstrap is the largest number of bootstrap resamples accepted, 20 ×
// the paper's 5,000. The shared index matrix takes 4·B·n bytes (n evaluated
// questions): 40 MB at the cap for 100 questions.
const MaxBootstrap = 100_000

// CheckBootstrap reports a resample count outside 1 ≤ b ≤ MaxBootstrap.
func CheckBootstrap(b int) error {
	if b < 1 || b > MaxBootstrap {
		return fmt.Errorf("bootstrap resamples must be between 1 and %d (the paper uses %d), got %d", MaxBootstrap, bootstrap.DefaultB, b)
	}
	return nil
}

// ErrNothingToEvaluate marks a question set in which no question has
// primary gold (rel 2), so every average would be over zero questions.
var ErrNothingToEvaluate = errors.New("no question to evaluate")

// CheckEvaluable reports, wrapping ErrNothingToEvaluate, when no question of
// qs has a rel-2 chunk in qrels (spec §10 excludes such questions from every
// average); the message names both files.
func CheckEvaluable(qs []questions.Question, qrels ranking.Qrels, questionsPath, qrelsPath string) error {
	for _, q := range qs {
		if metrics.PrimaryGold(qrels[q.QID]) > 0 {
			return nil
		}
	}
	rows := 0
	for _, judged := range qrels {
		rows += len(judged)
	}
	return fmt.Errorf("%w: none of the %d questions of %s has a chunk judged 2 (primary gold) in %s (%d judgements); add qrels rows \"QID 0 CHUNK_ID 2\"",
		ErrNothingToEvaluate, len(qs), questionsPath, qrelsPath, rows)
}

// CheckGoldInCorpus reports the first gold row (rel ≥ 1) of the qrels file
// whose chunk ID is not in corpus as an *inputerr.Error at its line (spec
// §11: a chunk_id that does not exist is bad input). Such a row would still
// count in |G2| and lower every score.
func CheckGoldInCorpus(qrelsPath string, qrels ranking.Qrels, corpus map[string]bool) error {
	missing := metrics.MissingGold(qrels, corpus)
	if len(missing) == 0 {
		return nil
	}
	want := map[[2]string]bool{}
	for _, g := range missing {
		want[[2]string{g.QID, g.ChunkID}] = true
	}
	line, fields := firstLineMatching(qrelsPath, func(fields []string) bool {
		return len(fields) >= 3 && want[[2]string{fields[0], fields[2]}]
	})
	g := missing[0]
	if line > 0 {
		g = metrics.GoldRef{QID: fields[0], ChunkID: fields[2]}
	}
	more := ""
	if len(missing) > 1 {
		more = fmt.Sprintf(" (%d gold rows in all name chunks that are not in the corpus)", len(missing))
	}
	return inputerr.Atf(qrelsPath, line, "a chunk ID of the corpus, got %q for %s%s; ingest the sources the qrels were made for, with the same chunking", g.ChunkID, g.QID, more)
}

// firstLineMatching returns the 1-based number and the whitespace-separated
// fields of the first line of path whose fields satisfy ok, or 0 and nil.
func firstLineMatching(path string, ok func([]string) bool) (int, []string) {
	f, err := regularfile.Open(path)
	if err != nil {
		return 0, nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		if fields := strings.Fields(sc.Text()); ok(fields) {
			return line, fields
		}
	}
	return 0, nil
}

package experiment

import (
	"bufio"
	"os"
	"strings"

	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/trec"
)

// LoadQuestionSet reads a question file and its qrels and checks that every
// qrels qid is a question: an unknown qid is bad input, an *inputerr.Error
// naming the qrels file and the qid's first line (spec §11).
func LoadQuestionSet(questionsPath, qrelsPath string) ([]questions.Question, ranking.Qrels, error) {
	qs, err := questions.ReadFile(questionsPath)
	if err != nil {
		return nil, nil, err
	}
	qrels, err := trec.ReadQrelsFile(qrelsPath)
	if err != nil {
		return nil, nil, err
	}
	known := make(map[string]bool, len(qs))
	for _, q := range qs {
		known[q.QID] = true
	}
	for qid := range qrels {
		if !known[qid] {
			return nil, nil, inputerr.Atf(qrelsPath, firstLineOf(qrelsPath, qid), "a qid of %s, got %q", questionsPath, qid)
		}
	}
	return qs, qrels, nil
}

// firstLineOf returns the 1-based number of the first line of path whose first
// field is qid, or 0.
func firstLineOf(path, qid string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		if fields := strings.Fields(sc.Text()); len(fields) > 0 && fields[0] == qid {
			return line
		}
	}
	return 0
}

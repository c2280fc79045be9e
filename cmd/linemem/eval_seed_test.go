package main

import (
	"encoding/json"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
)

// TestEvalSeedFlagChoosesTheResamples: --seed reaches the bootstrap. The
// default is the paper's 12345; another seed moves the intervals, the same
// seed repeats them.
func TestEvalSeedFlagChoosesTheResamples(t *testing.T) {
	db := conformanceDB(t)
	ci := func(extra ...string) string {
		args := append([]string{"eval", "--db", db, "--questions", conformance.Path("questions.jsonl"), "--qrels", conformance.Path("qrels.txt"),
			"--retriever", "raw_text_bm25", "--bootstrap", "500", "--json"}, extra...)
		var got struct {
			Retrievers []struct {
				CI json.RawMessage `json:"ci"`
			} `json:"retrievers"`
		}
		if err := json.Unmarshal([]byte(run(t, args...)), &got); err != nil || len(got.Retrievers) != 1 {
			t.Fatalf("eval --json: %v", err)
		}
		return string(got.Retrievers[0].CI)
	}
	def, paper, one, oneAgain := ci(), ci("--seed", "12345"), ci("--seed", "1"), ci("--seed", "1")
	if def != paper {
		t.Errorf("default intervals %s differ from --seed 12345's %s", def, paper)
	}
	if one == def {
		t.Errorf("--seed 1 gives the default intervals %s: the flag does not reach the bootstrap", one)
	}
	if one != oneAgain {
		t.Errorf("--seed 1 twice: %s then %s", one, oneAgain)
	}
}

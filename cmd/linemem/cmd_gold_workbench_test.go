package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/workbench"
)

func workbenchFile(name string) string {
	return filepath.Join("..", "..", "testdata", "workbench", name)
}

// TestGoldPoolJudgeExportAgreement runs the workbench commands as a person
// would: pool, import one annotator's judgments, export, and compare two
// annotators.
func TestGoldPoolJudgeExportAgreement(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	out := run(t, "gold", "pool", "--db", db, "--questions", workbenchFile("questions.jsonl"),
		"--evidence", workbenchFile("evidence.jsonl"), "--depth", "3", "--retriever", "raw_text_bm25", "--tokenizer", "char-bigram")
	if !strings.Contains(out, "pooled 3 questions") || !strings.Contains(out, "retriever raw_text_bm25:") {
		t.Fatalf("pool report:\n%s", out)
	}
	out = run(t, "gold", "judgments", "import", workbenchFile("judgments_a.jsonl"), "--db", db)
	if !strings.Contains(out, "imported 5 judgments") {
		t.Fatalf("import: %s", out)
	}
	qrels, questionsOut := filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "q.jsonl")
	var stdout, stderr bytes.Buffer
	if code := runMain(&environment{stdout: &stdout, stderr: &stderr}, []string{"gold", "export", "--db", db, "--qrels", qrels, "--questions-out", questionsOut}); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr.String())
	}
	got, _ := os.ReadFile(qrels)
	want, _ := os.ReadFile(workbenchFile("expected_qrels.txt"))
	if string(got) != string(want) {
		t.Errorf("qrels:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(stderr.String(), "dropped w3: no relevance-2 chunk") {
		t.Errorf("export report does not explain w3:\n%s", stderr.String())
	}
	qs, _ := os.ReadFile(questionsOut)
	if lines := strings.Split(strings.TrimSpace(string(qs)), "\n"); len(lines) != 2 || !strings.Contains(lines[0], `"qid":"w1"`) || !strings.Contains(lines[0], `"answer":"自分（朝9時）"`) {
		t.Errorf("questions-out:\n%s", qs)
	}
	// Annotator B agrees on three of the four rows both judged.
	exported := run(t, "gold", "judgments", "export", "--db", db, "--annotator", "A")
	b := strings.ReplaceAll(exported, `"annotator":"A"`, `"annotator":"B"`)
	b = strings.Replace(b, `"chunk_id":"f25c4db10106ed0f","rel":1`, `"chunk_id":"f25c4db10106ed0f","rel":0`, 1)
	bPath := filepath.Join(dir, "b.jsonl")
	os.WriteFile(bPath, []byte(b), 0o644)
	run(t, "gold", "judgments", "import", "--db", db, bPath)
	var ag struct {
		Rows          int      `json:"rows"`
		Kappa         *float64 `json:"kappa"`
		WeightedKappa *float64 `json:"weighted_kappa"`
	}
	if err := json.Unmarshal([]byte(run(t, "gold", "agreement", "--db", db, "--annotators", "A,B", "--json")), &ag); err != nil {
		t.Fatal(err)
	}
	// Table rows A, columns B: (0,0) = 2, (1,0) = 1, (2,2) = 2; n = 5, margins
	// A (2, 1, 2) and B (3, 0, 2).
	po, pe := 4.0/5, (2*3+1*0+2*2)/25.0
	if ag.Rows != 5 || ag.Kappa == nil || ag.WeightedKappa == nil || math.Abs(*ag.Kappa-(po-pe)/(1-pe)) > 1e-12 {
		t.Errorf("agreement %+v, want 5 rows and κ %v", ag, (po-pe)/(1-pe))
	}
	// Exporting with two annotators needs a name.
	stderr.Reset()
	if code := runMain(&environment{stdout: &stdout, stderr: &stderr}, []string{"gold", "export", "--db", db, "--qrels", qrels}); code != 2 || !strings.Contains(stderr.String(), "--annotator") {
		t.Errorf("export with two annotators: exit %d, %s", code, stderr.String())
	}
}

func TestServeRefusesANonLoopbackAddressWithoutPublic(t *testing.T) {
	db := filepath.Join(t.TempDir(), "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	for _, addr := range []string{"0.0.0.0:0", ":8080", "192.0.2.1:80"} {
		code, stdout, stderr := providerSideRun(t, "serve", "--db", db, "--addr", addr)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "--public") {
			t.Errorf("serve --addr %s: exit %d, stdout %q, stderr %q", addr, code, stdout, stderr)
		}
	}
}

// TestGoldUnknownAnnotatorIsAUsageError: a mistyped --annotator stops export,
// judgments export and agreement before any file is written, naming who has
// judged.
func TestGoldUnknownAnnotatorIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	run(t, "gold", "pool", "--db", db, "--questions", workbenchFile("questions.jsonl"),
		"--evidence", workbenchFile("evidence.jsonl"), "--depth", "0")
	run(t, "gold", "judgments", "import", "--db", db, workbenchFile("judgments_a.jsonl"))
	qrels := filepath.Join(dir, "qrels.txt")
	out := filepath.Join(dir, "a.jsonl")
	for _, args := range [][]string{
		{"gold", "export", "--db", db, "--qrels", qrels, "--annotator", "a"},
		{"gold", "judgments", "export", "--db", db, "--out", out, "--annotator", "a"},
		{"gold", "agreement", "--db", db, "--annotators", "A,b", "--json"},
	} {
		var stdout, stderr bytes.Buffer
		code := runMain(&environment{stdout: &stdout, stderr: &stderr}, args)
		if code != 2 || !strings.Contains(stderr.String(), "no judgments by annotator") || !strings.Contains(stderr.String(), "annotators: A") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the known annotators", args, code, stderr.String())
		}
		if stdout.Len() > 0 {
			t.Errorf("%v: printed %q", args, stdout.String())
		}
	}
	for _, p := range []string{qrels, out} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was written (stat: %v)", p, err)
		}
	}
}

// TestGoldPoolOfAnEmptyQuestionsFile: an empty questions file is an error
// naming the file, not a pool of nothing reported as success.
func TestGoldPoolOfAnEmptyQuestionsFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	var stdout, stderr bytes.Buffer
	code := runMain(&environment{stdout: &stdout, stderr: &stderr}, []string{"gold", "pool", "--db", db, "--questions", empty, "--evidence", empty})
	if code != 1 || !strings.Contains(stderr.String(), empty+": no questions") {
		t.Errorf("empty questions: exit %d, stderr %q", code, stderr.String())
	}
}

// TestGoldAgreementRefusesTheSameAnnotatorTwice: κ of an annotator with
// themself is 1 by construction, not an agreement.
func TestGoldAgreementRefusesTheSameAnnotatorTwice(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	run(t, "gold", "pool", "--db", db, "--questions", workbenchFile("questions.jsonl"),
		"--evidence", workbenchFile("evidence.jsonl"), "--depth", "0")
	run(t, "gold", "judgments", "import", "--db", db, workbenchFile("judgments_a.jsonl"))
	var stdout, stderr bytes.Buffer
	code := runMain(&environment{stdout: &stdout, stderr: &stderr}, []string{"gold", "agreement", "--db", db, "--annotators", "A,A"})
	if code != 2 || !strings.Contains(stderr.String(), "same annotator twice") || stdout.Len() > 0 {
		t.Errorf("agreement A,A: exit %d, stdout %q, stderr %q; want a usage error", code, stdout.String(), stderr.String())
	}
}

// TestServePublicNeedsAllowedHosts: --public keeps the Host check, so it
// needs the names browsers will use.
func TestServePublicNeedsAllowedHosts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--addr", "0.0.0.0:0", "--public"}, "--allowed-host"},
		{[]string{"--addr", "127.0.0.1:0", "--allowed-host", "x.example"}, "goes with --public"},
		{[]string{"--addr", "0.0.0.0:0", "--public", "--allowed-host", "x.example:80"}, "without port"},
	} {
		code, stdout, stderr := providerSideRun(t, append([]string{"serve", "--db", db}, c.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.says) {
			t.Errorf("serve %v: exit %d, stdout %q, stderr %q; want 2 saying %s", c.args, code, stdout, stderr, c.says)
		}
	}
}

// TestGoldPoolGivesEverySyntheticQuestionRetrieverRows: with the everyday
// analyzer (the default) every synthetic question has retriever rows, and
// the per-question report says how many each retriever and each evidence
// item gave; with the paper's tokenizer the questions it cannot cut are
// named in a warning.
func TestGoldPoolGivesEverySyntheticQuestionRetrieverRows(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests the synthetic history")
	}
	data := filepath.Join("..", "..", "data", "synthetic")
	db := filepath.Join(t.TempDir(), "s.db")
	run(t, "ingest", "--db", db, filepath.Join(data, "sources"))
	evidence, err := gold.ReadEvidenceFile(filepath.Join(data, "evidence.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	pool := func(extra ...string) string {
		return run(t, append([]string{"gold", "pool", "--db", db, "--questions", filepath.Join(data, "questions.jsonl"),
			"--evidence", filepath.Join(data, "evidence.jsonl")}, extra...)...)
	}
	out := pool()
	line := regexp.MustCompile(`(?m)^question (\S+): (\d+) rows, raw_text_bm25 (\d+), evidence items((?: #\d+: \d+)+)$`)
	got := line.FindAllStringSubmatch(out, -1)
	if len(got) != len(evidence) {
		t.Fatalf("%d per-question lines for %d questions:\n%s", len(got), len(evidence), out)
	}
	for i, m := range got {
		ev := evidence[i]
		if m[1] != ev.QID {
			t.Errorf("line %d is about %s, want %s", i, m[1], ev.QID)
		}
		if m[3] != strconv.Itoa(workbench.DefaultDepth) {
			t.Errorf("%s: raw_text_bm25 gave %s rows, want the depth %d", ev.QID, m[3], workbench.DefaultDepth)
		}
		if items := strings.Count(m[4], "#"); items != len(ev.Items) {
			t.Errorf("%s: %d evidence items reported, want %d", ev.QID, items, len(ev.Items))
		}
	}
	if strings.Contains(out, "warning: question") {
		t.Errorf("the default analyzer left questions without retriever rows:\n%s", out)
	}
	if paper := pool("--tokenizer", "paper-regex"); !strings.Contains(paper, "warning: question q002 got no retriever rows") {
		t.Errorf("paper-regex pool does not name q002 as left without retriever rows:\n%s", paper)
	}
}

// TestAnswerSurvivesDraftPoolAndExport: a reference answer in the evidence
// file reaches the candidates, the pool, the Judge page's data and
// questions-out.
func TestAnswerSurvivesDraftPoolAndExport(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	raw, err := os.ReadFile(workbenchFile("evidence.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	withAnswer := strings.Replace(string(raw), `"type":"named_entity",`, `"type":"named_entity","answer":"一万二千円",`, -1)
	from := filepath.Join(dir, "ev.jsonl")
	os.WriteFile(from, []byte(withAnswer), 0o644)
	cands := filepath.Join(dir, "cands.jsonl")
	run(t, "questions", "draft", "--db", db, "--provider", "file", "--from", from, "--out", cands)
	if b, _ := os.ReadFile(cands); strings.Count(string(b), `"answer":"一万二千円"`) != 3 {
		t.Fatalf("candidates lost the answer:\n%s", b)
	}
	run(t, "gold", "pool", "--db", db, "--questions", cands, "--evidence", cands, "--depth", "0")
	run(t, "gold", "judgments", "import", "--db", db, workbenchFile("judgments_a.jsonl"))
	qout := filepath.Join(dir, "q.jsonl")
	run(t, "gold", "export", "--db", db, "--qrels", filepath.Join(dir, "qrels.txt"), "--questions-out", qout)
	b, _ := os.ReadFile(qout)
	if n := strings.Count(string(b), `"answer":"一万二千円"`); n == 0 || n != strings.Count(string(b), "\n") {
		t.Errorf("questions-out lost the answer:\n%s", b)
	}
}

// TestGoldJudgmentsImportBeforePoolNamesTheCommand: judgments imported into
// a database where nothing is pooled say to run gold pool first.
func TestGoldJudgmentsImportBeforePoolNamesTheCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	code, _, stderr := providerSideRun(t, "gold", "judgments", "import", "--db", db, workbenchFile("judgments_a.jsonl"))
	if code == 0 || !strings.Contains(stderr, "judgments_a.jsonl:1") || !strings.Contains(stderr, "linemem gold pool --questions FILE") {
		t.Errorf("import before pool: exit %d, stderr %q; want FILE:1 naming gold pool", code, stderr)
	}
}

// TestGoldExportConsensusOfTwoWhoAgree: two annotators who agree on every
// row export a consensus of every row, with no adjudication made; with a
// third annotator the pair must be named.
func TestGoldExportConsensusOfTwoWhoAgree(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	run(t, "gold", "pool", "--db", db, "--questions", workbenchFile("questions.jsonl"),
		"--evidence", workbenchFile("evidence.jsonl"), "--depth", "3", "--retriever", "raw_text_bm25", "--tokenizer", "char-bigram")
	run(t, "gold", "judgments", "import", workbenchFile("judgments_a.jsonl"), "--db", db)
	a := run(t, "gold", "judgments", "export", "--db", db, "--annotator", "A")
	for _, other := range []string{"B", "C"} {
		path := filepath.Join(dir, other+".jsonl")
		os.WriteFile(path, []byte(strings.ReplaceAll(a, `"annotator":"A"`, `"annotator":"`+other+`"`)), 0o600)
		if other == "B" {
			run(t, "gold", "judgments", "import", "--db", db, path)
		}
	}
	qrels := filepath.Join(dir, "consensus.txt")
	var stdout, stderr bytes.Buffer
	if code := runMain(&environment{stdout: &stdout, stderr: &stderr}, []string{"gold", "export", "--db", db, "--annotator", "consensus", "--qrels", qrels}); code != 0 {
		t.Fatalf("export consensus: exit %d: %s", code, stderr.String())
	}
	got, _ := os.ReadFile(qrels)
	want, _ := os.ReadFile(workbenchFile("expected_qrels.txt"))
	if string(got) != string(want) || !strings.Contains(stderr.String(), "consensus of A and B: 5 rows agreed, 0 adjudicated") {
		t.Errorf("consensus qrels:\n%s\nwant A's:\n%s\nreport:\n%s", got, want, stderr.String())
	}
	run(t, "gold", "judgments", "import", "--db", db, filepath.Join(dir, "C.jsonl"))
	stderr.Reset()
	if code := runMain(&environment{stdout: &stdout, stderr: &stderr}, []string{"gold", "export", "--db", db, "--annotator", "consensus", "--qrels", qrels}); code != 2 || !strings.Contains(stderr.String(), "--pair A,B") {
		t.Errorf("consensus with three annotators: exit %d, %s", code, stderr.String())
	}
	if code := runMain(&environment{stdout: &stdout, stderr: &stderr}, []string{"gold", "export", "--db", db, "--annotator", "consensus", "--pair", "B,C", "--qrels", qrels}); code != 0 {
		t.Errorf("consensus of B and C: exit %d, %s", code, stderr.String())
	}
}

// TestGoldPoolTakesAnswersFromTheQuestionsFile runs docs/gold.md's commands
// on the shipped synthetic corpus: pooled from questions.jsonl, every
// question keeps the reference answer the Judge page shows.
func TestGoldPoolTakesAnswersFromTheQuestionsFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "syn.db")
	syn := filepath.Join("..", "..", "data", "synthetic")
	run(t, "ingest", "--db", db, filepath.Join(syn, "sources"))
	run(t, "gold", "pool", "--db", db, "--questions", filepath.Join(syn, "questions.jsonl"),
		"--evidence", filepath.Join(syn, "evidence.jsonl"), "--depth", "10", "--retriever", "raw_text_bm25")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	qs, err := workbench.Open(st).Questions()
	if err != nil || len(qs) == 0 {
		t.Fatalf("%d questions pooled, %v", len(qs), err)
	}
	for _, q := range qs {
		if q.Answer == "" {
			t.Errorf("%s pooled without its reference answer", q.QID)
		}
	}
}

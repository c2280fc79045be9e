package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/reproduce"
)

// answerServer is an OpenAI-compatible /responses endpoint whose answer cites [1] and [7].
func answerServer(t *testing.T) (*atomic.Int32, string) {
	t.Helper()
	var n atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"local-model",
			"output":[{"type":"message","id":"m","status":"completed","role":"assistant","content":[{"type":"output_text","text":"範囲は教科書の3章までです [1]。[7]","annotations":[]}]}],
			"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15,"input_tokens_details":{"cached_tokens":0},"output_tokens_details":{"reasoning_tokens":0}}}`)
	}))
	t.Cleanup(ts.Close)
	t.Setenv("OPENAI_BASE_URL", ts.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test-ASK-0123456789")
	return &n, ts.URL
}

func TestAskExtractiveJSON(t *testing.T) {
	db := conformanceDB(t)
	out := run(t, "ask", "数学のテストの範囲はどこまで？", "--db", db, "--json", "--retriever", "raw_text_bm25")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, k := range []string{"question", "answer", "citations", "retriever", "provider", "model", "prompt_version"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("ask --json lacks %q", k)
		}
	}
	if doc["provider"] != answer.ExtractiveName || doc["retriever"] != "raw_text_bm25" {
		t.Errorf("provider, retriever = %v, %v", doc["provider"], doc["retriever"])
	}
	cites, _ := doc["citations"].([]any)
	if len(cites) != 1 {
		t.Fatalf("citations = %v", doc["citations"])
	}
	c := cites[0].(map[string]any)
	if c["n"] == nil || c["chunk_id"] == "" || len(c["message_ids"].([]any)) == 0 {
		t.Errorf("citation = %v, want n, chunk_id and message_ids", c)
	}
}

// TestAskLoopbackIsLocal: an OpenAI-compatible server on loopback (Ollama,
// vLLM) is this machine, so `ask --provider openai` asks it without
// --allow-remote, as docs/your-history.md says.
func TestAskLoopbackIsLocal(t *testing.T) {
	db := conformanceDB(t)
	n, _ := answerServer(t)
	code, stdout, stderr := providerSideRun(t, "ask", "--db", db, "--provider", "openai", "数学のテストの範囲はどこまで？")
	if code != 0 || n.Load() != 1 || !strings.Contains(stdout, "範囲は教科書の3章までです") {
		t.Errorf("exit %d, %d requests:\n%s%s", code, n.Load(), stdout, stderr)
	}
}

func TestAskRemote(t *testing.T) {
	db := conformanceDB(t)
	n, _ := answerServer(t)
	q := "数学のテストの範囲はどこまで？"

	code, stdout, stderr := providerSideRun(t, "ask", "--db", db, "--provider", "openai", "--base-url", remoteURL, q)
	if code != 1 || !strings.Contains(stderr, "Nothing was sent") || n.Load() != 0 {
		t.Fatalf("without --allow-remote: exit %d, %d requests, stderr %q", code, n.Load(), stderr)
	}
	code, stdout, _ = providerSideRun(t, "ask", "--db", db, "--dry-run", q)
	if code != 0 || !strings.Contains(stdout, "dry run: nothing sent") || !strings.Contains(stdout, "[1] ") || n.Load() != 0 {
		t.Fatalf("--dry-run: exit %d, %d requests:\n%s", code, n.Load(), stdout)
	}

	code, stdout, stderr = providerSideRun(t, "ask", "--db", db, "--allow-remote", q)
	if code != 0 || n.Load() != 1 {
		t.Fatalf("--allow-remote: exit %d, %d requests: %s", code, n.Load(), stderr)
	}
	if !strings.Contains(stderr, "nothing else from the history is sent") {
		t.Errorf("no notice before sending: %q", stderr)
	}
	if !strings.HasPrefix(stdout, "範囲は教科書の3章までです [1]。[7]") || !strings.Contains(stdout, "\n[1] ") || !strings.Contains(stdout, "name no supplied window: [7]") {
		t.Errorf("output:\n%s", stdout)
	}

	out := run(t, "ask", "--db", db, "--allow-remote", "--json", q)
	var a answer.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if !a.Cached || n.Load() != 1 || a.PromptVersion != answer.PromptVersion || a.Provider != "openai" {
		t.Errorf("rerun: cached %v, %d requests, prompt %q; want the cached answer, nothing sent", a.Cached, n.Load(), a.PromptVersion)
	}
}

func TestEvalAnswers(t *testing.T) {
	db := conformanceDB(t)
	out := t.TempDir()
	doc := run(t, "eval-answers", "--db", db, "--questions", conformance.Path("questions.jsonl"), "--qrels", conformance.Path("qrels.txt"),
		"--retriever", "raw_text_bm25", "--bootstrap", "100", "--quiet", "--json", "--out", out)
	var got evalAnswersJSON
	if err := json.Unmarshal([]byte(doc), &got); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	if got.Provider != answer.ExtractiveName || got.K != answer.DefaultK || len(got.Groups) == 0 || got.Groups[0].Name != "all" || got.Groups[0].Metrics["citation_recall"].Mean == nil {
		t.Errorf("eval-answers --json = %+v", got)
	}
	md, err := os.ReadFile(filepath.Join(out, reproduce.AnswersSlug+".md"))
	if err != nil {
		t.Fatal(err)
	}
	qs, _ := os.ReadFile(conformance.Path("questions.jsonl"))
	for _, line := range strings.Split(strings.TrimSpace(string(qs)), "\n") {
		var q struct{ Question string }
		json.Unmarshal([]byte(line), &q)
		if strings.Contains(string(md), q.Question) {
			t.Errorf("%s holds question text %q", reproduce.AnswersSlug, q.Question)
		}
	}
}

func TestAskAndEvalAnswersBadInput(t *testing.T) {
	db := conformanceDB(t)
	bad := filepath.Join(t.TempDir(), "q.jsonl")
	os.WriteFile(bad, []byte(`{"qid": "q01", "question": "a", "type": "contextual"}`+"\n"+`{"qid": "q02", "question": "b", "type": "contextual", "answer": 3}`+"\n"), 0o644)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no question", []string{"ask", "--db", db}, 2, "QUESTION is required"},
		{"unknown provider", []string{"ask", "--db", db, "--provider", "file", "x"}, 2, "unknown provider"},
		{"k out of range", []string{"ask", "--db", db, "--k", "0", "x"}, 2, "k must be between"},
		{"missing database", []string{"ask", "--db", filepath.Join(t.TempDir(), "none.db"), "x"}, 1, "no such database"},
		{"bad answer field", []string{"eval-answers", "--db", db, "--questions", bad, "--qrels", conformance.Path("qrels.txt")}, 1, bad + ":2"},
		{"no qrels", []string{"eval-answers", "--db", db, "--questions", bad}, 2, "--qrels are required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := providerSideRun(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, c.code, c.want)
			}
		})
	}
}

// TestAskNamesAGuessedOwner: without --me or a stored name, a quote of the
// one sender in every chat names that sender and stderr says the guess;
// --me makes the same line "あなた", and the name is stored for later asks.
func TestAskNamesAGuessedOwner(t *testing.T) {
	dir := t.TempDir()
	chats := map[string]string{
		"[LINE] ゆいとのトーク.txt": "[LINE] ゆいとのトーク履歴\n保存日時：2024/06/01 22:00\n\n2024/05/03(金)\n09:00\tみお\t傘忘れた、ごめん\n09:03\tゆい\tえっ\n09:06\tみお\t明日返すね\n",
		"[LINE] 家族のトーク.txt":  "[LINE] 家族のトーク履歴\n保存日時：2024/06/01 22:01\n\n2024/05/02(木)\n19:00\t母\t夕飯なにがいい\n19:03\tみお\tカレー\n",
	}
	for name, text := range chats {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "me.db")
	run(t, "ingest", "--db", db, dir)
	code, out, errOut := runCode("ask", "--db", db, "傘忘れたの誰")
	if code != 0 || !strings.Contains(out, "みお（2024年5月3日）：「傘忘れた、ごめん」") || !strings.Contains(errOut, "みお wrote in every chat") {
		t.Errorf("guessed owner: exit %d\nstdout %s\nstderr %s\nwant the quote naming みお and the guess on stderr", code, out, errOut)
	}
	if code, _, errOut := runCode("ask", "--db", db, "--me", "みく", "傘忘れたの誰"); code != 2 || !strings.Contains(errOut, `closest: "みお"`) {
		t.Errorf("--me naming no sender: exit %d, stderr %q; want a usage error offering みお", code, errOut)
	}
	for _, args := range [][]string{{"--me", "みお"}, nil} {
		code, out, errOut := runCode(append([]string{"ask", "--db", db, "傘忘れたの誰"}, args...)...)
		stored := strings.Contains(errOut, "you are みお: stored in")
		if code != 0 || !strings.Contains(out, "あなた（2024年5月3日）：「傘忘れた、ごめん」") || strings.Contains(errOut, "wrote in every chat") || stored != (args != nil) {
			t.Errorf("ask %v: exit %d\nstdout %s\nstderr %s\nwant the quote as あなた, no guess, and the name's storing said once", args, code, out, errOut)
		}
	}
	// part of a name stores the sender's full name, once
	for i, me := range []string{"ゆ", "ゆい"} {
		code, _, errOut := runCode("ask", "--db", db, "--me", me, "傘忘れたの誰")
		if stored := strings.Contains(errOut, "you are ゆい: stored in"); code != 0 || stored != (i == 0) {
			t.Errorf("--me %s: exit %d, stderr %q; want ゆい stored the first time only", me, code, errOut)
		}
	}
}

// TestAskLowConfidenceSaysWhatItDoes: under low confidence ask says it
// quotes the closest line only when it quotes one; with no word of the
// question in the history it says the history does not, and nothing more.
func TestAskLowConfidenceSaysWhatItDoes(t *testing.T) {
	dir := t.TempDir()
	chat := "[LINE] ゆいとのトーク履歴\n保存日時：2024/06/01 22:00\n\n2024/05/03(金)\n09:00\tみお\t傘忘れた、ごめん\n09:03\tゆい\tえっ\n09:06\tみお\t明日返すね\n"
	if err := os.WriteFile(filepath.Join(dir, "[LINE] ゆいとのトーク.txt"), []byte(chat), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "me.db")
	run(t, "ingest", "--db", db, dir)
	for _, tc := range []struct {
		question string
		quotes   bool
	}{
		{"傘と量子力学の論文の査読", true},
		{"みおの電話番号", false},
	} {
		code, out, errOut := runCode("ask", "--db", db, tc.question)
		says := strings.Contains(out, "the closest line is quoted")
		if code != 0 || !strings.Contains(out, "may not hold the answer") || says != tc.quotes || strings.Contains(out, "「") != tc.quotes {
			t.Errorf("%s: exit %d\nstdout %s\nstderr %s\nwant the low-confidence notice, saying a line is quoted: %v", tc.question, code, out, errOut, tc.quotes)
		}
	}
}

package job_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/job"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/provider/retry"
	"github.com/linemem/linemem/lib/provider/summaryfile"
	"github.com/linemem/linemem/lib/redact"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/store"
)

const fakeKey = "sk-test-JOBKEY-9f8e7d6c5b4a39281706"

// fakeAPI speaks the Responses and Embeddings wire formats. Inputs
// containing "BAD" get a 400; embeddings have dimension dim.
type fakeAPI struct {
	mu       sync.Mutex
	requests int
	inputs   []string // every input text received, in order
	dim      int
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	raw, _ := io.ReadAll(r.Body)
	json.Unmarshal(raw, &body)
	f.mu.Lock()
	f.requests++
	dim := f.dim
	var inputs []string
	switch in := body["input"].(type) {
	case string:
		inputs = []string{in}
	case []any:
		for _, s := range in {
			inputs = append(inputs, s.(string))
		}
	}
	f.inputs = append(f.inputs, inputs...)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	for _, in := range inputs {
		if strings.Contains(in, "BAD") {
			w.WriteHeader(400)
			io.WriteString(w, `{"error": {"message": "input rejected", "type": "invalid_request_error", "param": null, "code": null}}`)
			return
		}
	}
	var out any
	if strings.HasSuffix(r.URL.Path, "/responses") {
		text := "要約: " + string([]rune(inputs[0])[len([]rune(represent.SummaryUserTemplate))+2:])
		out = map[string]any{"id": "resp_1", "object": "response", "created_at": 1, "status": "completed", "model": "gpt-4o-mini-2024-07-18",
			"output": []any{map[string]any{"type": "message", "id": "m", "status": "completed", "role": "assistant",
				"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}},
			"usage": map[string]any{"input_tokens": 100, "output_tokens": 20, "total_tokens": 120,
				"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}
	} else {
		var data []any
		for i, in := range inputs {
			h := fnv.New32a()
			h.Write([]byte(in))
			v := make([]float64, dim)
			for j := range v {
				v[j] = float64((h.Sum32()>>(j%24))&0xff) + 1
			}
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
		}
		out = map[string]any{"object": "list", "data": data, "model": "text-embedding-3-small", "usage": map[string]any{"prompt_tokens": 5, "total_tokens": 5}}
	}
	json.NewEncoder(w).Encode(out)
}

func startAPI(t *testing.T, dim int) (*fakeAPI, string) {
	f := &fakeAPI{dim: dim}
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	t.Setenv("OPENAI_API_KEY", fakeKey)
	return f, ts.URL
}

func quickRetry() retry.Policy {
	p := retry.Default(3)
	p.MaxAttempts = 2
	p.Base, p.Max = time.Millisecond, time.Millisecond
	return p
}

func summarizer(t *testing.T, url string) provider.Summarizer {
	s, err := openai.NewSummarizer(openai.SummarizerConfig{Config: openai.Config{BaseURL: url, Retry: quickRetry(), Timeout: 5 * time.Second},
		Instructions: represent.SummarySystemPrompt})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func embedder(t *testing.T, url string, dims int) provider.Embedder {
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Config: openai.Config{BaseURL: url, Retry: quickRetry(), Timeout: 5 * time.Second}, Dimensions: dims})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// newStore ingests one chunk per text (messages a day apart, so each is its
// own session) and returns the store, its cache, the chunk IDs and the DB path.
func newStore(t *testing.T, texts ...string) (*store.Store, *cache.Cache, []string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "linemem.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var msgs []chat.Message
	base := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	for i, text := range texts {
		at := base.AddDate(0, 0, i)
		m := chat.Message{Source: "t.json", SourceOrder: i, Date: at.Format(chat.DateLayout), Time: "10:00:00", OccurredAt: at,
			Sender: "A", Type: "text", Text: text}
		m.ID = chat.MessageID(m)
		msgs = append(msgs, m)
	}
	chunks, err := chunking.Build(msgs, chunking.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.IngestSource("t.json", "sha", 1, chunking.DefaultOptions(), msgs, chunks); err != nil {
		t.Fatal(err)
	}
	c, err := cache.Open(st.DB())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ch := range chunks {
		ids = append(ids, ch.ID)
	}
	return st, c, ids, path
}

// cancelAfter cancels a context once n writes of generated results succeeded.
type cancelAfter struct {
	job.Store
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) tick() {
	if c.n--; c.n == 0 {
		c.cancel()
	}
}

func (c *cancelAfter) PutSummaries(rows []store.SummaryRow) error {
	err := c.Store.PutSummaries(rows)
	if err == nil {
		c.tick()
	}
	return err
}

func (c *cancelAfter) PutChunkVectors(rep, model string, inputCap int, rows []store.VectorRow) error {
	err := c.Store.PutChunkVectors(rep, model, inputCap, rows)
	if err == nil {
		c.tick()
	}
	return err
}

// forgetful hides stored summaries and vectors, so only the cache can prevent sending.
type forgetful struct{ job.Store }

func (forgetful) Summaries() (map[string]string, error) { return map[string]string{}, nil }
func (forgetful) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	return nil, 0, nil, nil
}

func texts(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("話題%dについて話した", i))
	}
	return out
}

func TestSummariesKillAndResume(t *testing.T) {
	api, url := startAPI(t, 3)
	st, c, ids, path := newStore(t, texts(6)...)
	ctx, cancel := context.WithCancel(context.Background())
	killed := &cancelAfter{Store: st, n: 2, cancel: cancel}
	rep, err := job.Summaries{Store: killed, Summarizer: summarizer(t, url), Options: job.Options{Cache: c}}.Run(ctx)
	if !errors.Is(err, context.Canceled) || !rep.Interrupted || rep.Done != 2 || rep.Remaining() != 4 {
		t.Fatalf("first run: err=%v report=%+v", err, rep)
	}
	if api.count() != 2 {
		t.Fatalf("first run sent %d requests, want 2", api.count())
	}
	var progress bytes.Buffer
	rep, err = job.Summaries{Store: st, Summarizer: summarizer(t, url), Options: job.Options{Cache: c, Progress: &progress}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sent := api.count() - 2; sent != 4 {
		t.Errorf("resume sent %d requests, want 4", sent)
	}
	if rep.Total != 6 || rep.Stored != 2 || rep.Done != 4 || rep.Cached != 0 || len(rep.Failed) != 0 || rep.Usage.OutputTokens != 80 {
		t.Errorf("resume report %+v", rep)
	}
	if !strings.Contains(progress.String(), "summarize 4/4 (100.0%)") {
		t.Errorf("progress = %q", progress.String())
	}
	sums, _ := st.Summaries()
	if len(sums) != 6 || !strings.HasPrefix(sums[ids[0]], "要約: 2024-01-01 10:00 A: 話題0") {
		t.Errorf("summaries %v", sums)
	}
	var calls, attempts, inTokens int
	var returned, sdk string
	err = st.DB().QueryRow(`SELECT COUNT(*), SUM(attempts), SUM(input_tokens), MIN(returned_model), MIN(sdk) FROM provider_calls WHERE kind = 'summary'`).
		Scan(&calls, &attempts, &inTokens, &returned, &sdk)
	if err != nil || calls != 6 || attempts != 6 || inTokens != 600 || returned != "gpt-4o-mini-2024-07-18" || !strings.HasPrefix(sdk, "openai-go v") {
		t.Errorf("provenance: %v calls=%d attempts=%d tokens=%d returned=%q sdk=%q", err, calls, attempts, inTokens, returned, sdk)
	}
	// A rerun sends nothing: the store has everything.
	rep, _ = job.Summaries{Store: st, Summarizer: summarizer(t, url), Options: job.Options{Cache: c}}.Run(context.Background())
	if api.count() != 6 || rep.Stored != 6 {
		t.Errorf("third run: %d requests, report %+v", api.count(), rep)
	}
	// Nor when the store forgets: the cache answers.
	rep, _ = job.Summaries{Store: forgetful{st}, Summarizer: summarizer(t, url), Options: job.Options{Cache: c}}.Run(context.Background())
	if api.count() != 6 || rep.Cached != 6 {
		t.Errorf("forgetful run: %d requests, report %+v", api.count(), rep)
	}
	st.Close()
	assertNoKey(t, path)
}

// assertNoKey checks that no file of the database holds the API key.
func assertNoKey(t *testing.T, dbPath string) {
	t.Helper()
	files, _ := filepath.Glob(dbPath + "*")
	if len(files) == 0 {
		t.Fatal("no database files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(fakeKey)) || bytes.Contains(b, []byte("JOBKEY")) {
			t.Errorf("%s contains the API key", f)
		}
	}
}

func TestSummariesPermanentFailureContinues(t *testing.T) {
	for _, failFast := range []bool{false, true} {
		t.Run(fmt.Sprint("failFast=", failFast), func(t *testing.T) {
			api, url := startAPI(t, 3)
			st, c, ids, _ := newStore(t, "一つ目", "BAD な入力", "三つ目")
			var out bytes.Buffer
			rep, err := job.Summaries{Store: st, Summarizer: summarizer(t, url), Options: job.Options{Cache: c, FailFast: failFast}}.Run(context.Background())
			rep.Write(&out)
			if len(rep.Failed) != 1 || rep.Failed[0].Item != ids[1] || !strings.Contains(rep.Failed[0].Reason, "HTTP 400: input rejected") {
				t.Fatalf("failures %+v", rep.Failed)
			}
			wantDone, wantRequests := 2, 3
			if failFast {
				wantDone, wantRequests = 1, 2
				if err == nil {
					t.Error("fail-fast run returned no error")
				}
			} else if err != nil {
				t.Error(err)
			}
			if rep.Done != wantDone || api.count() != wantRequests {
				t.Errorf("done %d requests %d, want %d %d", rep.Done, api.count(), wantDone, wantRequests)
			}
			if !strings.Contains(out.String(), "failed 1× permanent error after 1 attempt(s): HTTP 400: input rejected ("+ids[1]+")") {
				t.Errorf("report:\n%s", out.String())
			}
		})
	}
}

func TestSummariesRedactionAndPlan(t *testing.T) {
	api, url := startAPI(t, 3)
	st, c, ids, _ := newStore(t, "花子の番号は090-1234-5678", strings.Repeat("長", 7100))
	red, err := redact.New([]string{"phone"}, []string{"花子"})
	if err != nil {
		t.Fatal(err)
	}
	j := job.Summaries{Store: st, Summarizer: summarizer(t, url), Options: job.Options{Cache: c, Redactor: red}}
	plan, err := j.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first := represent.SummaryInput("2024-01-01 10:00 A: [NAME]の番号は[PHONE]")
	second := represent.SummaryInput("2024-01-02 10:00 A: " + strings.Repeat("長", 7100))
	wantChars := len([]rune(first)) + len([]rune(second))
	if plan.Total != 2 || plan.ToSend != 2 || plan.Requests != 2 || plan.Chars != wantChars || plan.Truncated != 1 || plan.Redactions != 2 || plan.OutputTokens != 1400 {
		t.Errorf("plan %+v (want chars %d)", plan, wantChars)
	}
	if api.count() != 0 {
		t.Fatal("Plan sent a request")
	}
	if _, err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if api.inputs[0] != first {
		t.Errorf("sent %q, want %q", api.inputs[0], first)
	}
	out, ok, err := c.Get(context.Background(), cache.NewKey(first, j.Summarizer))
	if !ok || err != nil {
		t.Fatalf("cache: %v %v", ok, err)
	}
	if out.Redaction != red.Describe() || out.Redacted["phone"] != 1 || out.Redacted["name"] != 1 || out.Item != ids[0] {
		t.Errorf("provenance %+v", out)
	}
	out2, _, _ := c.Get(context.Background(), cache.NewKey(second, j.Summarizer))
	if want := (cache.Span{SourceChars: 7120, HeadEnd: 7000, TailStart: 7000}); out2.Span != want {
		t.Errorf("span %+v, want %+v", out2.Span, want)
	}
}

func TestEmbeddingsKillResumeAndBatches(t *testing.T) {
	api, url := startAPI(t, 4)
	st, c, _, path := newStore(t, texts(7)...)
	ctx, cancel := context.WithCancel(context.Background())
	killed := &cancelAfter{Store: st, n: 2, cancel: cancel}
	j := job.Embeddings{Store: killed, Embedder: embedder(t, url, 4), Rep: represent.RawText, MaxBatch: 2, Options: job.Options{Cache: c}}
	rep, err := j.Run(ctx)
	// Cancelled after the second batch is stored: the third is not claimed,
	// and the report says the run was interrupted, as a summary run's does.
	if !errors.Is(err, context.Canceled) || !rep.Interrupted || rep.Done != 4 || api.count() != 2 {
		t.Fatalf("first run: err=%v report=%+v requests=%d", err, rep, api.count())
	}
	j.Store = st
	rep, err = j.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sent := api.count() - 2; sent != 2 || rep.Done != 3 || rep.Stored != 4 {
		t.Errorf("resume: %d requests, report %+v", sent, rep)
	}
	ids, dim, _, _ := st.ChunkVectors(represent.RawText, "text-embedding-3-small")
	if len(ids) != 7 || dim != 4 {
		t.Errorf("stored %d vectors of dim %d", len(ids), dim)
	}
	j.Store = forgetful{st}
	if rep, _ := j.Run(context.Background()); api.count() != 4 || rep.Cached != 7 {
		t.Errorf("forgetful run: %d requests, report %+v", api.count(), rep)
	}
	st.Close()
	assertNoKey(t, path)
}

func TestEmbeddingsIsolatePermanentFailure(t *testing.T) {
	api, url := startAPI(t, 3)
	st, c, ids, _ := newStore(t, "a", "b", "c", "BAD")
	rep, err := job.Embeddings{Store: st, Embedder: embedder(t, url, 3), Rep: represent.RawText, MaxBatch: 4, Options: job.Options{Cache: c}}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// [a b c BAD] → [a b] ok, [c BAD] → [c] ok, [BAD] fails.
	if api.count() != 5 || rep.Done != 3 || len(rep.Failed) != 1 || rep.Failed[0].Item != ids[3] {
		t.Errorf("requests %d report %+v", api.count(), rep)
	}
}

func TestEmbeddingsDimension(t *testing.T) {
	t.Run("stored vectors of another dimension", func(t *testing.T) {
		api, url := startAPI(t, 4)
		st, c, ids, _ := newStore(t, "a", "b")
		if err := st.PutChunkVectors(represent.RawText, "text-embedding-3-small", 2000, []store.VectorRow{{Key: ids[0], Vector: []float32{1, 2, 3}}}); err != nil {
			t.Fatal(err)
		}
		_, err := job.Embeddings{Store: st, Embedder: embedder(t, url, 4), Rep: represent.RawText, Options: job.Options{Cache: c}}.Run(context.Background())
		if !errors.Is(err, provider.ErrDimensionChanged) || api.count() != 0 {
			t.Errorf("err = %v after %d requests", err, api.count())
		}
	})
	t.Run("answer changes dimension mid-run", func(t *testing.T) {
		api, url := startAPI(t, 3)
		st, c, _, _ := newStore(t, "a", "b", "c")
		e, err := openai.NewEmbedder(openai.EmbedderConfig{Config: openai.Config{Model: "local-model", BaseURL: url, Retry: quickRetry()}})
		if err != nil {
			t.Fatal(err)
		}
		changer := &dimChanger{Store: st, api: api}
		rep, err := job.Embeddings{Store: changer, Embedder: e, Rep: represent.RawText, MaxBatch: 1, Options: job.Options{Cache: c}}.Run(context.Background())
		if !errors.Is(err, provider.ErrDimensionChanged) || rep.Done != 1 || api.count() != 2 {
			t.Errorf("err = %v, report %+v, %d requests", err, rep, api.count())
		}
		ids, dim, _, _ := st.ChunkVectors(represent.RawText, "local-model")
		if len(ids) != 1 || dim != 3 {
			t.Errorf("stored %d vectors of dim %d", len(ids), dim)
		}
	})
}

// dimChanger makes the fake API answer with another dimension after the first write.
type dimChanger struct {
	job.Store
	api *fakeAPI
}

func (d *dimChanger) PutChunkVectors(rep, model string, inputCap int, rows []store.VectorRow) error {
	d.api.mu.Lock()
	d.api.dim = 5
	d.api.mu.Unlock()
	return d.Store.PutChunkVectors(rep, model, inputCap, rows)
}

func TestQueryVectors(t *testing.T) {
	api, url := startAPI(t, 3)
	st, c, _, _ := newStore(t, "a")
	qs := []string{"いつ会った？", "誰と行った？", "いつ会った？"}
	j := job.Embeddings{Store: st, Embedder: embedder(t, url, 3), Questions: qs, Options: job.Options{Cache: c}}
	rep, err := j.Run(context.Background())
	if err != nil || rep.Total != 2 || rep.Done != 2 || api.count() != 1 {
		t.Fatalf("err=%v report=%+v requests=%d", err, rep, api.count())
	}
	if _, found, _ := st.QueryVector("text-embedding-3-small", "誰と行った？"); !found {
		t.Error("query vector not stored")
	}
	if api.inputs[0] != "いつ会った？" {
		t.Errorf("question not sent verbatim: %q", api.inputs[0])
	}
	j.Embedder = embedder(t, url, 5)
	j.Questions = append(qs, "新しい質問")
	if _, err := j.Run(context.Background()); !errors.Is(err, provider.ErrDimensionChanged) || api.count() != 1 {
		t.Errorf("dimension change: err=%v, %d requests", err, api.count())
	}
}

func TestProgressRateAndETA(t *testing.T) {
	st, c, ids, _ := newStore(t, "一", "二", "三")
	var lines strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&lines, `{"chunk_id": %q, "summary": "要約%s"}`+"\n", id, id)
	}
	sum, err := summaryfile.Parse("s.jsonl", strings.NewReader(lines.String()))
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(0, 0)
	tick := func() time.Time { clock = clock.Add(time.Second); return clock } // every reading is one second later
	var progress bytes.Buffer
	rep, err := job.Summaries{Store: st, Summarizer: sum, Options: job.Options{Cache: c, Progress: &progress, ProgressEvery: time.Nanosecond, Now: tick}}.Run(context.Background())
	if err != nil || rep.Done != 3 {
		t.Fatalf("err=%v report=%+v", err, rep)
	}
	// start at 1 s; item 1 read at 2 s: 1 done in 1 s → 1/s, 2 left → ETA 2 s.
	want := "summarize 1/3 (33.3%) 1.00/s ETA 2s\nsummarize 2/3 (66.7%) 1.00/s ETA 1s\nsummarize 3/3 (100.0%) 1.00/s ETA 0s\n"
	if progress.String() != want {
		t.Errorf("progress:\n%s\nwant:\n%s", progress.String(), want)
	}
	sums, _ := st.Summaries()
	if sums[ids[1]] != "要約"+ids[1] {
		t.Errorf("summary of %s = %q", ids[1], sums[ids[1]])
	}
}

// TestSummariesPlanCountsTheRetryPass: of three chunks, one has an
// incomplete summary. Without Retry the plan sends the other two and leaves
// it alone (Incomplete 1, Resend 0); with Retry it also resends that one,
// whose input and output budget (Retry's max_output_tokens) join the
// estimates. Nothing is sent.
func TestSummariesPlanCountsTheRetryPass(t *testing.T) {
	api, url := startAPI(t, 3)
	st, c, ids, _ := newStore(t, "一つ目の話", "二つ目の話", "三つ目の話")
	if err := st.PutIncompleteSummaries([]store.IncompleteSummary{{ChunkID: ids[1], Summary: "途中", Origin: "openai:gpt-4o-mini", Status: job.IncompleteStatus}}); err != nil {
		t.Fatal(err)
	}
	const retryBudget = 4 * openai.DefaultMaxOutputTokens
	retry, err := openai.NewSummarizer(openai.SummarizerConfig{Config: openai.Config{BaseURL: url, Retry: quickRetry(), Timeout: 5 * time.Second},
		Instructions: represent.SummarySystemPrompt, MaxOutputTokens: retryBudget})
	if err != nil {
		t.Fatal(err)
	}
	j := job.Summaries{Store: st, Summarizer: summarizer(t, url), Options: job.Options{Cache: c}}
	plain, err := j.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if plain.Total != 3 || plain.ToSend != 2 || plain.Requests != 2 || plain.Incomplete != 1 || plain.Resend != 0 ||
		plain.OutputTokens != 2*openai.DefaultMaxOutputTokens {
		t.Errorf("plan without Retry %+v, want 2 to send, 1 incomplete left alone", plain)
	}
	j.Retry = retry
	got, err := j.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	input := represent.SummaryInput("2024-01-02 10:00 A: 二つ目の話")
	wantIn := plain.InputTokens + provider.EstimateTokens(input) + provider.EstimateTokens(represent.SummarySystemPrompt)
	if got.Total != 3 || got.ToSend != 3 || got.Requests != 3 || got.Incomplete != 1 || got.Resend != 1 ||
		got.Chars != plain.Chars+len([]rune(input)) || got.InputTokens != wantIn ||
		got.OutputTokens != 2*openai.DefaultMaxOutputTokens+retryBudget {
		t.Errorf("plan with Retry %+v, want 3 to send (1 resent), input ≈ %d, output ≤ %d", got, wantIn, 2*openai.DefaultMaxOutputTokens+retryBudget)
	}
	if api.count() != 0 {
		t.Fatal("Plan sent a request")
	}
}

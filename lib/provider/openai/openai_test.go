package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/provider/retry"
	"github.com/linemem/linemem/lib/represent"
)

const fakeKey = "sk-test-FAKEKEY0123456789abcdef"

// sleeps records the waits the retry policy asked for instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func testPolicy(rec *sleeps) retry.Policy {
	p := retry.Default(7)
	p.MaxAttempts = 3
	p.Base = time.Millisecond
	p.Max = 4 * time.Millisecond
	p.Sleep = rec.sleep
	return p
}

func responsesBody(text, model string) string {
	b, _ := json.Marshal(map[string]any{
		"id": "resp_abc", "object": "response", "created_at": 1700000000, "status": "completed",
		"model": model,
		"output": []any{map[string]any{
			"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
		}},
		"usage": map[string]any{"input_tokens": 120, "output_tokens": 40, "total_tokens": 160,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}},
	})
	return string(b)
}

func embeddingsBody(model string, vecs [][]float64, order []int) string {
	var data []any
	for _, i := range order {
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": vecs[i]})
	}
	b, _ := json.Marshal(map[string]any{"object": "list", "data": data, "model": model,
		"usage": map[string]any{"prompt_tokens": 7, "total_tokens": 7}})
	return string(b)
}

// server answers each request with the next step; the last step repeats.
type server struct {
	t        *testing.T
	mu       sync.Mutex
	steps    []func(w http.ResponseWriter, r *http.Request, body map[string]any)
	requests atomic.Int32
	bodies   []map[string]any
	auth     []string
	org      []string
}

func newServer(t *testing.T, steps ...func(w http.ResponseWriter, r *http.Request, body map[string]any)) (*server, *httptest.Server) {
	s := &server{t: t, steps: steps}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("request body is not JSON: %v", err)
		}
		n := int(s.requests.Add(1)) - 1
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.org = append(s.org, r.Header.Get("OpenAI-Organization"))
		s.mu.Unlock()
		s.steps[min(n, len(s.steps)-1)](w, r, body)
	}))
	t.Cleanup(ts.Close)
	t.Setenv("OPENAI_API_KEY", fakeKey)
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_ORG_ID", "")
	return s, ts
}

func jsonReply(status int, body string, headers ...string) func(http.ResponseWriter, *http.Request, map[string]any) {
	return func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func apiError(status int, msg string, headers ...string) func(http.ResponseWriter, *http.Request, map[string]any) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "error", "param": nil, "code": nil}})
	return jsonReply(status, string(b), headers...)
}

func newSummarizer(t *testing.T, url string, rec *sleeps, timeout time.Duration) *openai.Summarizer {
	t.Helper()
	s, err := openai.NewSummarizer(openai.SummarizerConfig{
		Config:       openai.Config{BaseURL: url, Timeout: timeout, Retry: testPolicy(rec)},
		Instructions: "system prompt",
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSummarizeRequestAndProvenance(t *testing.T) {
	srv, ts := newServer(t, jsonReply(200, responsesBody("要約です", "gpt-4o-mini-2024-07-18")))
	s, err := openai.NewSummarizer(openai.SummarizerConfig{
		Config:       openai.Config{BaseURL: ts.URL, Organization: "org-linemem", Retry: testPolicy(&sleeps{})},
		Instructions: "system prompt",
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Summarize(context.Background(), provider.SummaryRequest{ID: "c1", Input: "テンプレート\n\n原文"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "要約です" {
		t.Errorf("text = %q", res.Text)
	}
	c := res.Call
	if c.RequestedModel != "gpt-4o-mini" || c.ReturnedModel != "gpt-4o-mini-2024-07-18" || c.Attempts != 1 ||
		c.Usage != (provider.Usage{InputTokens: 120, OutputTokens: 40, TotalTokens: 160}) || c.ResponseID != "resp_abc" || c.Status != "completed" {
		t.Errorf("call = %+v", c)
	}
	if !regexp.MustCompile(`^openai-go v\d+\.\d+\.\d+`).MatchString(c.SDK) {
		t.Errorf("SDK = %q", c.SDK)
	}
	body := srv.bodies[0]
	want := map[string]any{"model": "gpt-4o-mini", "instructions": "system prompt", "input": "テンプレート\n\n原文", "max_output_tokens": 700.0}
	for k, v := range want {
		if body[k] != v {
			t.Errorf("request %s = %v, want %v", k, body[k], v)
		}
	}
	if body["store"] != false {
		t.Errorf("store = %v, want false by default", body["store"])
	}
	for _, unset := range []string{"temperature", "top_p", "seed"} {
		if _, ok := body[unset]; ok {
			t.Errorf("request sets %s", unset)
		}
	}
	if srv.org[0] != "org-linemem" {
		t.Errorf("OpenAI-Organization = %q", srv.org[0])
	}
	if srv.auth[0] != "Bearer "+fakeKey {
		t.Errorf("Authorization = %q", srv.auth[0])
	}
	if got := s.Endpoint(); got != ts.URL+"/responses" {
		t.Errorf("Endpoint = %q", got)
	}
}

func TestSummarizeReliability(t *testing.T) {
	ok := jsonReply(200, responsesBody("ok", "m"))
	// The attempt timeout is long enough for a loaded machine to answer the
	// other steps in time; slow outlasts it until the client gives up.
	const attemptTimeout = time.Second
	slow := func(w http.ResponseWriter, r *http.Request, b map[string]any) {
		select {
		case <-r.Context().Done():
		case <-time.After(30 * attemptTimeout):
		}
	}
	cases := []struct {
		name         string
		steps        []func(http.ResponseWriter, *http.Request, map[string]any)
		wantAttempts int
		wantErr      string // "" = success
		permanent    bool
		minSleep     time.Duration // some recorded wait must be at least this
	}{
		{"429 with Retry-After seconds", steps(apiError(429, "slow down", "Retry-After", "2"), ok), 2, "", false, 2 * time.Second},
		{"429 with retry-after-ms", steps(apiError(429, "slow down", "retry-after-ms", "1500"), ok), 2, "", false, 1500 * time.Millisecond},
		{"500 then success", steps(apiError(500, "boom"), ok), 2, "", false, 0},
		{"500 with plain-text body", steps(jsonReply(503, "upstream down", "Content-Type", "text/plain"), ok), 2, "", false, 0},
		{"timeout then success", steps(slow, ok), 2, "", false, 0},
		{"malformed body then success", steps(jsonReply(200, `{"id": "resp_1", "output": [`), ok), 2, "", false, 0},
		{"malformed body every time", steps(jsonReply(200, `{"id": `)), 3, "transient error after 3 attempt(s)", false, 0},
		{"500 every time", steps(apiError(500, "boom")), 3, "HTTP 500: boom", false, 0},
		{"400 is permanent", steps(apiError(400, "bad input")), 1, "HTTP 400: bad input", true, 0},
		{"empty output is permanent", steps(jsonReply(200, responsesBody("", "m"))), 1, "no output text", true, 0},
		{"401 message scrubbed of key", steps(apiError(401, "Incorrect API key provided: "+fakeKey)), 1, "HTTP 401: Incorrect API key provided: [API key]", true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, ts := newServer(t, c.steps...)
			rec := &sleeps{}
			s := newSummarizer(t, ts.URL, rec, attemptTimeout)
			res, err := s.Summarize(context.Background(), provider.SummaryRequest{Input: "x"})
			if got := int(srv.requests.Load()); got != c.wantAttempts {
				t.Errorf("server saw %d requests, want %d", got, c.wantAttempts)
			}
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if res.Call.Attempts != c.wantAttempts {
					t.Errorf("Attempts = %d, want %d", res.Call.Attempts, c.wantAttempts)
				}
			} else {
				var ce *provider.CallError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want CallError containing %q", err, c.wantErr)
				}
				if ce.Attempts != c.wantAttempts || ce.Permanent != c.permanent {
					t.Errorf("CallError = %+v", ce)
				}
				if strings.Contains(err.Error(), fakeKey) {
					t.Errorf("error exposes the key: %v", err)
				}
			}
			if c.minSleep > 0 {
				if len(rec.d) == 0 || rec.d[0] < c.minSleep {
					t.Errorf("waits %v, want first ≥ %v", rec.d, c.minSleep)
				}
			}
		})
	}
}

func steps(s ...func(http.ResponseWriter, *http.Request, map[string]any)) []func(http.ResponseWriter, *http.Request, map[string]any) {
	return s
}

func TestSummarizeCancelled(t *testing.T) {
	_, ts := newServer(t, apiError(500, "boom"))
	s := newSummarizer(t, ts.URL, &sleeps{}, time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Summarize(ctx, provider.SummaryRequest{Input: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func newEmbedder(t *testing.T, url string, dims int) *openai.Embedder {
	t.Helper()
	e, err := openai.NewEmbedder(openai.EmbedderConfig{
		Config:     openai.Config{BaseURL: url, Timeout: time.Second, Retry: testPolicy(&sleeps{})},
		Dimensions: dims,
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEmbedRequestAndOrder(t *testing.T) {
	vecs := [][]float64{{1, 0, 0}, {0, 1, 0}}
	srv, ts := newServer(t, jsonReply(200, embeddingsBody("text-embedding-3-small", vecs, []int{1, 0})))
	e := newEmbedder(t, ts.URL, 3)
	res, err := e.Embed(context.Background(), []string{"一", "二"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Vectors) != "[[1 0 0] [0 1 0]]" {
		t.Errorf("vectors = %v (must follow index, not answer order)", res.Vectors)
	}
	if e.Dimension() != 3 || res.Call.Usage.InputTokens != 7 || res.Call.ReturnedModel != "text-embedding-3-small" {
		t.Errorf("dim %d call %+v", e.Dimension(), res.Call)
	}
	b := srv.bodies[0]
	if b["encoding_format"] != "float" || b["model"] != "text-embedding-3-small" || b["dimensions"] != 3.0 ||
		fmt.Sprint(b["input"]) != "[一 二]" {
		t.Errorf("request = %v", b)
	}
}

func TestEmbedDefaultDimensionNotSent(t *testing.T) {
	v := make([]float64, 1536)
	srv, ts := newServer(t, jsonReply(200, embeddingsBody("text-embedding-3-small", [][]float64{v}, []int{0})))
	e := newEmbedder(t, ts.URL, 0)
	if e.Dimension() != 1536 {
		t.Errorf("default dimension = %d", e.Dimension())
	}
	if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.bodies[0]["dimensions"]; ok {
		t.Error("dimensions sent although not configured")
	}
}

func TestEmbedDimensionChangeRejected(t *testing.T) {
	srv, ts := newServer(t,
		jsonReply(200, embeddingsBody("local-model", [][]float64{{1, 2, 3}}, []int{0})),
		jsonReply(200, embeddingsBody("local-model", [][]float64{{1, 2, 3, 4}}, []int{0})))
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Config: openai.Config{Model: "local-model", BaseURL: ts.URL, Retry: testPolicy(&sleeps{})}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Dimension() != 0 {
		t.Errorf("unknown model dimension = %d before first answer", e.Dimension())
	}
	if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.Embed(context.Background(), []string{"b"})
	if !errors.Is(err, provider.ErrDimensionChanged) || !provider.IsPermanent(err) {
		t.Errorf("err = %v, want permanent ErrDimensionChanged", err)
	}
	if srv.requests.Load() != 2 {
		t.Errorf("dimension change retried: %d requests", srv.requests.Load())
	}
	if e.Dimension() != 3 {
		t.Errorf("dimension moved to %d", e.Dimension())
	}
}

func TestEmbedMalformedAnswers(t *testing.T) {
	cases := []struct{ name, body string }{
		{"too few vectors", embeddingsBody("m", [][]float64{{1}}, []int{0})},
		{"repeated index", embeddingsBody("m", [][]float64{{1}, {2}}, []int{0, 0})},
		{"mixed lengths", embeddingsBody("m", [][]float64{{1}, {2, 3}}, []int{0, 1})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, ts := newServer(t, jsonReply(200, c.body))
			e := newEmbedder(t, ts.URL, 0)
			_, err := e.Embed(context.Background(), []string{"a", "b"})
			if !provider.IsPermanent(err) {
				t.Errorf("err = %v, want permanent", err)
			}
		})
	}
	t.Run("empty input", func(t *testing.T) {
		srv, ts := newServer(t, jsonReply(200, "{}"))
		e := newEmbedder(t, ts.URL, 0)
		if _, err := e.Embed(context.Background(), []string{"a", ""}); !provider.IsPermanent(err) {
			t.Errorf("err = %v", err)
		}
		if srv.requests.Load() != 0 {
			t.Error("empty input was sent")
		}
	})
}

func TestRegistry(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://localhost:9/v1")
	s, err := provider.NewSummarizer("openai", provider.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Model() != "gpt-4o-mini" || s.Remote() || !strings.Contains(s.Params(), "max_output_tokens=700") {
		t.Errorf("summarizer %s %v %s", s.Model(), s.Remote(), s.Params())
	}
	if ep := s.(interface{ Endpoint() string }).Endpoint(); ep != "http://localhost:9/v1/responses" {
		t.Errorf("Endpoint = %q (OPENAI_BASE_URL ignored)", ep)
	}
	e, err := provider.NewEmbedder("openai", provider.Options{Dimensions: 256})
	if err != nil {
		t.Fatal(err)
	}
	if e.Model() != "text-embedding-3-small" || e.Dimension() != 256 {
		t.Errorf("embedder %s %d", e.Model(), e.Dimension())
	}
	if !strings.Contains(s.Params(), provider.ParamsHash(represent.SummarySystemPrompt)) {
		t.Errorf("default instructions are not the spec's system prompt: %s", s.Params())
	}
}

func TestEndpointMasksPassword(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", fakeKey)
	for _, c := range []struct{ base, want string }{
		{"http://user:s3cret@127.0.0.1:8080/v1", "http://user:xxxxx@127.0.0.1:8080/v1/embeddings"},
		{"http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1/embeddings"},
		{"http://user@host/v1", "http://user@host/v1/embeddings"},
	} {
		t.Setenv("OPENAI_BASE_URL", c.base)
		e, err := openai.NewEmbedder(openai.EmbedderConfig{Config: openai.Config{Model: "m"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Endpoint(); got != c.want || strings.Contains(got, "s3cret") {
			t.Errorf("OPENAI_BASE_URL=%s: Endpoint() = %s, want %s", c.base, got, c.want)
		}
	}
}

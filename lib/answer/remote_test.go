package answer_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/provider/retry"
	"github.com/linemem/linemem/lib/redact"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
)

// responsesServer speaks the Responses API: each request gets the next
// status of statuses (the last repeats); 200 answers with text.
type responsesServer struct {
	mu       sync.Mutex
	statuses []int
	text     string
	bodies   []map[string]any
}

func (s *responsesServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	json.Unmarshal(raw, &body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	status := s.statuses[min(len(s.bodies), len(s.statuses))-1]
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if status != http.StatusOK {
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": http.StatusText(status), "type": "error", "param": nil, "code": nil}})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "resp_1", "object": "response", "created_at": 1700000000, "status": "completed", "model": "gpt-4o-mini-2024-07-18",
		"output": []any{map[string]any{"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": s.text, "annotations": []any{}}}}},
		"usage": map[string]any{"input_tokens": 300, "output_tokens": 20, "total_tokens": 320,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}},
	})
}

func (s *responsesServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

func newRemote(t *testing.T, srv *responsesServer) (*answer.Remote, *cache.Cache) {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	t.Setenv("OPENAI_API_KEY", "sk-test-FAKEKEY0123456789")
	pol := retry.Default(1)
	pol.Base, pol.Max = time.Millisecond, time.Millisecond
	pol.Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	gen, err := openai.NewSummarizer(openai.SummarizerConfig{
		Config:          openai.Config{BaseURL: ts.URL, Retry: pol},
		Instructions:    answer.Instructions,
		MaxOutputTokens: answer.DefaultMaxOutputTokens,
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cc, err := cache.Open(st.DB())
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenize.New("char-bigram")
	if err != nil {
		t.Fatal(err)
	}
	return &answer.Remote{Gen: remoteService{gen}, Cache: cc, Tokenizer: tok}, cc
}

// remoteService is the test server standing in for a remote one: a
// service on loopback is local (openai.Summarizer.Remote), and these tests
// are about what is, and is not, sent off the machine.
type remoteService struct{ *openai.Summarizer }

func (remoteService) Remote() bool { return true }

func remoteChunks() []memory.Result {
	return []memory.Result{
		chunk("c1", "family.json", "母|今日は寒いね"),
		chunk("c2", "misaki.json", "美咲|新しい部屋決まったよ", "自分|どのへん？", "美咲|薬院駅から歩いて5分"),
	}
}

func TestRemoteRefusedWithoutAllowRemote(t *testing.T) {
	srv := &responsesServer{statuses: []int{200}, text: "薬院駅です [2]"}
	r, _ := newRemote(t, srv)
	sent := false
	r.BeforeSend = func(answer.Prompt, string) { sent = true }
	_, err := r.Answer(context.Background(), "最寄り駅は？", remoteChunks())
	if !errors.Is(err, answer.ErrRemoteNotAllowed) || !strings.Contains(err.Error(), "2 chunks") {
		t.Errorf("err = %v, want ErrRemoteNotAllowed naming what would be sent", err)
	}
	if srv.requests() != 0 || sent {
		t.Errorf("%d requests reached the server without --allow-remote", srv.requests())
	}
}

func TestRemoteSurvives429And500AndCaches(t *testing.T) {
	srv := &responsesServer{statuses: []int{429, 500, 200}, text: "薬院駅から歩いて5分のところです [2]。[5]"}
	r, cc := newRemote(t, srv)
	r.AllowRemote = true
	var dest string
	r.BeforeSend = func(_ answer.Prompt, d string) { dest = d }
	a, err := r.Answer(context.Background(), "美咲の新居の最寄り駅は？", remoteChunks())
	if err != nil {
		t.Fatal(err)
	}
	if srv.requests() != 3 || !strings.HasSuffix(dest, "/responses") {
		t.Errorf("requests = %d, destination %q; want 3 attempts to …/responses", srv.requests(), dest)
	}
	body := srv.bodies[2]
	if body["instructions"] != answer.Instructions || !strings.Contains(body["input"].(string), "[2] misaki.json") {
		t.Errorf("request body = %v", body)
	}
	if a.Cached || a.Model != "gpt-4o-mini" || a.ReturnedModel != "gpt-4o-mini-2024-07-18" || a.PromptVersion != answer.PromptVersion || a.Usage.TotalTokens != 320 {
		t.Errorf("provenance = %+v", a)
	}
	if len(a.Citations) != 1 || a.Citations[0].ChunkID != "c2" || !slices.Equal(a.Invalid, []int{5}) {
		t.Errorf("citations %+v, invalid %v; want c2 and [5] reported", a.Citations, a.Invalid)
	}
	if !slices.Contains(a.Citations[0].MessageIDs, "c2-m3") {
		t.Errorf("supporting messages %v lack the station message c2-m3", a.Citations[0].MessageIDs)
	}
	if n, _ := cc.CallCount(context.Background(), "openai", cache.KindAnswer); n != 1 {
		t.Errorf("%d answer calls recorded, want 1", n)
	}

	r.AllowRemote = false // a cached answer sends nothing, so needs no permission
	again, err := r.Answer(context.Background(), "美咲の新居の最寄り駅は？", remoteChunks())
	if err != nil {
		t.Fatal(err)
	}
	if !again.Cached || again.Text != a.Text || srv.requests() != 3 {
		t.Errorf("rerun: cached %v, %d requests; want the cached answer and no request", again.Cached, srv.requests())
	}
}

func TestRemoteRedacts(t *testing.T) {
	srv := &responsesServer{statuses: []int{200}, text: answer.AbstainPhrase}
	r, _ := newRemote(t, srv)
	r.AllowRemote = true
	red, err := redact.New([]string{"phone"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Redactor = red
	chunks := []memory.Result{chunk("c1", "a.json", "美咲|電話は090-1234-5678")}
	a, err := r.Answer(context.Background(), "番号は？", chunks)
	if err != nil {
		t.Fatal(err)
	}
	if in := srv.bodies[0]["input"].(string); strings.Contains(in, "090-1234-5678") {
		t.Errorf("phone number sent: %s", in)
	}
	if !a.Abstained || len(a.Citations) != 0 {
		t.Errorf("answer = %+v, want an abstention", a)
	}
}

func TestRemoteWithoutChunksAbstainsAndSendsNothing(t *testing.T) {
	srv := &responsesServer{statuses: []int{200}, text: "x [1]"}
	r, _ := newRemote(t, srv)
	r.AllowRemote = true
	a, err := r.Answer(context.Background(), "駅は？", nil)
	if err != nil || !a.Abstained || srv.requests() != 0 {
		t.Errorf("answer %+v, err %v, %d requests; want an abstention and nothing sent", a, err, srv.requests())
	}
}

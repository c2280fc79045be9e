package expand_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/linemem/linemem/lib/expand"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/provider/retry"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize/tokenizetest"
	"github.com/linemem/linemem/lib/trec"
)

// fixed is a first pass that returns the same hits for every query.
type fixed []trec.Hit

func (f fixed) Search(_ string, k int) ([]trec.Hit, error) { return f[:min(k, len(f))], nil }

func TestRM3Weights(t *testing.T) {
	docs := map[string]string{
		"d1": "trip kanazawa ticket ticket", // |d1| = 4
		"d2": "trip rental car",             // |d2| = 3
		"d3": "exam",                        // not in the feedback set (m = 2)
	}
	text := func(id string) (string, bool) { s, ok := docs[id]; return s, ok }
	first := fixed{{ChunkID: "d1", Score: 3}, {ChunkID: "d2", Score: 1}, {ChunkID: "d3", Score: 0.5}}
	r := expand.NewRM3(first, tokenizetest.Fields{}, text)
	r.FeedbackDocs, r.FeedbackTerms, r.OriginalWeight = 2, 3, 0.5

	// w_d1 = 3/4, w_d2 = 1/4.
	// P(t|R): trip = 3/4·1/4 + 1/4·1/3, ticket = 3/4·2/4, kanazawa = 3/4·1/4,
	// rental = car = 1/4·1/3. T = 3 keeps ticket, trip, kanazawa.
	ticket, trip, kanazawa := 3.0/4*2/4, 3.0/4*1/4+1.0/4*1/3, 3.0/4*1/4
	norm := ticket + trip + kanazawa
	// q = "trip plan": P(t|q) = 1/2 each.
	want := map[string]float64{
		"trip":     0.5*0.5 + 0.5*trip/norm,
		"plan":     0.5 * 0.5,
		"ticket":   0.5 * ticket / norm,
		"kanazawa": 0.5 * kanazawa / norm,
	}
	got, err := r.Weights("trip plan")
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-15 // a few additions and divisions
	sum := 0.0
	for _, tw := range got {
		if math.Abs(tw.Weight-want[tw.Term]) > tol {
			t.Errorf("P'(%s) = %v, want %v", tw.Term, tw.Weight, want[tw.Term])
		}
		sum += tw.Weight
	}
	if len(got) != len(want) || math.Abs(sum-1) > tol {
		t.Errorf("weights %v: want the %d terms of %v summing to 1", got, len(want), want)
	}
	// By weight: trip, plan (0.25), ticket (0.5·0.375/0.833… = 0.225), kanazawa.
	subs, _ := r.Expand(context.Background(), "trip plan")
	if wantSub := []string{"trip plan ticket kanazawa"}; !slices.Equal(subs, wantSub) {
		t.Errorf("Expand = %q, want %q", subs, wantSub)
	}
}

func TestRM3FeedbackTerms(t *testing.T) {
	// "2023" has no letter; "common" is in 2 of 10 documents (> 0.1·10).
	r := expand.NewRM3(fixed{{ChunkID: "d", Score: 1}}, tokenizetest.Fields{}, func(string) (string, bool) { return "trip 2023 common", true })
	r.DocFreq = func(t string) (int, int) {
		if t == "common" {
			return 2, 10
		}
		return 1, 10
	}
	got, _ := r.Weights("q")
	want := []expand.TermWeight{{Term: "q", Weight: 0.5}, {Term: "trip", Weight: 0.5}}
	if !slices.Equal(got, want) {
		t.Errorf("Weights = %v, want %v (only trip is a feedback term)", got, want)
	}
}

func TestRM3Edges(t *testing.T) {
	text := func(string) (string, bool) { return "", false }
	r := expand.NewRM3(fixed{}, tokenizetest.Fields{}, text)
	for _, q := range []string{"", "no hits"} {
		if subs, err := r.Expand(context.Background(), q); err != nil || subs != nil {
			t.Errorf("Expand(%q) = %q, %v; want none", q, subs, err)
		}
	}
	// Zero scores weigh feedback documents equally; λ = 1 keeps only q.
	r = expand.NewRM3(fixed{{ChunkID: "a", Score: 0}}, tokenizetest.Fields{}, func(string) (string, bool) { return "x y", true })
	r.OriginalWeight = 1
	got, _ := r.Weights("q")
	if len(got) != 1 || got[0] != (expand.TermWeight{Term: "q", Weight: 1}) {
		t.Errorf("λ = 1: %v, want only q with weight 1", got)
	}
	r.OriginalWeight = 1.5
	if _, err := r.Weights("q"); err == nil {
		t.Error("λ = 1.5: no error")
	}
}

type phraseList map[string][]string

func (p phraseList) Phrases(text string) []string { return p[text] }

func TestPhrasesExpander(t *testing.T) {
	src := phraseList{
		"topic only": {"金沢旅行"},
		"with light": {"金沢旅行", "する", "準備", "予約"},
	}
	e := expand.Phrases{Source: src}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"none", nil},
		{"topic only", nil},
		{"with light", []string{"金沢旅行 準備", "金沢旅行 予約"}},
	} {
		got, err := e.Expand(context.Background(), tc.q)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Expand(%q) = %q, %v; want %q", tc.q, got, err, tc.want)
		}
	}
}

func TestParseSubQueries(t *testing.T) {
	long := strings.Repeat("あ", expand.MaxSubQueryChars+1)
	answer := "1. 金沢旅行 予約\n2) レンタカー\n\n- 美術館 チケット\n・しおり 作成\n（5）金沢旅行 予約\n質問そのもの\n" + long + "\n「集合時間」\n6. 六つ目\n7. 七つ目"
	got := expand.ParseSubQueries(answer, "質問そのもの")
	want := []string{"金沢旅行 予約", "レンタカー", "美術館 チケット", "しおり 作成", "集合時間"}
	if !slices.Equal(got, want) {
		t.Errorf("ParseSubQueries = %q, want %q", got, want)
	}
	if got := expand.ParseSubQueries("", "q"); got != nil {
		t.Errorf("empty answer: %q", got)
	}
}

func responsesBody(text string) string {
	b, _ := json.Marshal(map[string]any{
		"id": "resp_1", "object": "response", "created_at": 1700000000, "status": "completed", "model": "gpt-4o-mini-2024-07-18",
		"output": []any{map[string]any{"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}},
		"usage": map[string]any{"input_tokens": 50, "output_tokens": 20, "total_tokens": 70,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}},
	})
	return string(b)
}

func TestDecomposerAgainstServer(t *testing.T) {
	var requests atomic.Int32
	var body map[string]any
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path != "/responses" || r.Method != http.MethodPost {
			t.Errorf("request %s %s, want POST /responses", r.Method, r.URL.Path)
		}
		b, _ := io.ReadAll(r.Body)
		body = nil
		json.Unmarshal(b, &body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, responsesBody("1. 金沢旅行 レンタカー 予約\n2. 金沢旅行 しおり"))
	}))
	defer ts.Close()
	t.Setenv("OPENAI_API_KEY", "sk-test")
	gen, err := expand.NewOpenAIGenerator(openai.Config{BaseURL: ts.URL, Retry: retry.Policy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := cache.Open(st.DB())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	question := " 金沢旅行の準備で自分が引き受けたことは何？ "
	d := &expand.Decomposer{Gen: gen, Cache: c}
	got, err := d.Expand(ctx, question)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"金沢旅行 レンタカー 予約", "金沢旅行 しおり"}; !slices.Equal(got, want) {
		t.Errorf("sub-queries %q, want %q", got, want)
	}
	if body["instructions"] != expand.DecomposeInstructions || body["input"] != strings.TrimSpace(question) ||
		body["max_output_tokens"] != float64(expand.DecomposeMaxTokens) || body["model"] != openai.DefaultSummaryModel || body["store"] != false {
		t.Errorf("request body %v: want the versioned prompt, the trimmed question, the output limit, the default model and store=false", body)
	}
	// A second decomposer, offline, answers from the cache without a request.
	off := &expand.Decomposer{Gen: gen, Cache: c, Offline: true}
	again, err := off.Expand(ctx, question)
	if err != nil || !slices.Equal(again, got) || requests.Load() != 1 {
		t.Errorf("cached: %q, %v after %d requests; want the same answer after 1", again, err, requests.Load())
	}
	if n, _ := c.CallCount(ctx, openai.Name, expand.KindDecomposition); n != 1 {
		t.Errorf("%d decomposition calls recorded, want 1", n)
	}
	if _, err := off.Expand(ctx, "別の質問"); !errors.Is(err, expand.ErrNotCached) {
		t.Errorf("offline miss: %v, want ErrNotCached", err)
	}
}

package cache_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/store"
)

type fakeProvider struct{ name, model, params string }

func (f fakeProvider) Name() string   { return f.name }
func (f fakeProvider) Model() string  { return f.model }
func (f fakeProvider) Params() string { return f.params }

func openCache(t *testing.T) (*cache.Cache, *store.Store) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c, err := cache.Open(st.DB())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cache.Open(st.DB()); err != nil {
		t.Fatalf("second Open: %v", err)
	}
	return c, st
}

func TestKey(t *testing.T) {
	p := fakeProvider{"openai", "m", "a=1"}
	k := cache.NewKey("入力", p)
	if k.InputSHA256 != cache.SHA256("入力") || k.ParamsSHA256 != provider.ParamsHash("a=1") || k.Provider != "openai" || k.Model != "m" {
		t.Errorf("key = %+v", k)
	}
	for name, other := range map[string]cache.Key{
		"input":  cache.NewKey("入力 ", p),
		"model":  cache.NewKey("入力", fakeProvider{"openai", "m2", "a=1"}),
		"params": cache.NewKey("入力", fakeProvider{"openai", "m", "a=2"}),
		"name":   cache.NewKey("入力", fakeProvider{"lsa", "m", "a=1"}),
	} {
		if other == k {
			t.Errorf("changing %s leaves the key unchanged", name)
		}
	}
	const emptySHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" // sha256("")
	if cache.SHA256("") != emptySHA {
		t.Errorf("SHA256(\"\") = %s", cache.SHA256(""))
	}
}

func TestPutGet(t *testing.T) {
	c, _ := openCache(t)
	ctx := context.Background()
	p := fakeProvider{"openai", "gpt-4o-mini", "x"}
	sum := cache.Output{Key: cache.NewKey("s-in", p), Kind: cache.KindSummary, Item: "c1", InputChars: 9,
		Span: cache.Span{SourceChars: 8000, HeadEnd: 7000, TailStart: 7000}, Redaction: "phone", Redacted: map[string]int{"phone": 2}, Text: "要約"}
	vec := cache.Output{Key: cache.NewKey("v-in", p), Kind: cache.KindVector, Item: "c2", InputChars: 2003,
		Span: cache.Span{SourceChars: 5000, HeadEnd: 1000, TailStart: 4000, Cap: 2000}, Redaction: "none", Vector: []float32{0.5, -1, 3.25}}
	call := cache.Call{Provider: "openai", Kind: cache.KindSummary, Params: "x", BatchSize: 1,
		Call: provider.Call{RequestedModel: "gpt-4o-mini", ReturnedModel: "gpt-4o-mini-2024-07-18", Attempts: 3, Latency: 1500 * time.Millisecond, SDK: "openai-go v3.98.0"}}
	if _, ok, err := c.Get(ctx, sum.Key); ok || err != nil {
		t.Fatalf("empty cache: ok=%v err=%v", ok, err)
	}
	if err := c.Put(ctx, call, []cache.Output{sum}); err != nil {
		t.Fatal(err)
	}
	call.Kind = cache.KindVector
	if err := c.Put(ctx, call, []cache.Output{vec}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []cache.Output{sum, vec} {
		got, ok, err := c.Get(ctx, want.Key)
		if err != nil || !ok {
			t.Fatalf("Get(%v): ok=%v err=%v", want.Key, ok, err)
		}
		if got.CallID == 0 {
			t.Error("no call id")
		}
		got.CallID = 0
		if want.Redacted == nil {
			want.Redacted = map[string]int{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Get = %+v\nwant  %+v", got, want)
		}
	}
	if n, _ := c.CallCount(ctx, "openai", cache.KindSummary); n != 1 {
		t.Errorf("summary calls = %d", n)
	}
}

func TestState(t *testing.T) {
	c, _ := openCache(t)
	ctx := context.Background()
	if _, ok, err := c.State(ctx, "lsa", "m"); ok || err != nil {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	for _, s := range [][]byte{{1, 2, 3}, {4}} {
		if err := c.PutState(ctx, "lsa", "m", s); err != nil {
			t.Fatal(err)
		}
		got, ok, err := c.State(ctx, "lsa", "m")
		if !ok || err != nil || !reflect.DeepEqual(got, s) {
			t.Errorf("State = %v %v %v, want %v", got, ok, err, s)
		}
	}
}

package cache_test

import (
	"context"
	"testing"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
)

// TestGetMissesOnAnyOtherKeyField stores one output and looks it up with keys
// that differ from its key in exactly one field: each must miss, so that a
// summary made by one model, provider or parameter set is never served for
// another.
func TestGetMissesOnAnyOtherKeyField(t *testing.T) {
	c, _ := openCache(t)
	ctx := context.Background()
	p := fakeProvider{"openai", "gpt-4o-mini", "x"}
	out := cache.Output{Key: cache.NewKey("入力", p), Kind: cache.KindSummary, Item: "c1", InputChars: 2, Redaction: "none", Text: "要約"}
	call := cache.Call{Provider: "openai", Kind: cache.KindSummary, Params: "x", BatchSize: 1, Call: provider.Call{RequestedModel: "gpt-4o-mini"}}
	if err := c.Put(ctx, call, []cache.Output{out}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := c.Get(ctx, out.Key); !ok || err != nil {
		t.Fatalf("Get(own key) = ok %v, err %v; want a hit", ok, err)
	}
	others := map[string]cache.Key{
		"input":    cache.NewKey("入力2", p),
		"provider": cache.NewKey("入力", fakeProvider{"local", "gpt-4o-mini", "x"}),
		"model":    cache.NewKey("入力", fakeProvider{"openai", "gpt-4.1-mini", "x"}),
		"params":   cache.NewKey("入力", fakeProvider{"openai", "gpt-4o-mini", "y"}),
	}
	for field, key := range others {
		if got, ok, err := c.Get(ctx, key); ok || err != nil {
			t.Errorf("Get with another %s = %q, ok %v, err %v; want a miss", field, got.Text, ok, err)
		}
	}
}

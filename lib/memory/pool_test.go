package memory_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/store"
)

// countingPool is a Pool over st whose opener counts its calls per
// retriever and fails while fail[name] is set.
type countingPool struct {
	*memory.Pool
	mu    sync.Mutex
	opens map[string]int
	fail  map[string]bool
}

func newCountingPool(st *store.Store) *countingPool {
	p := &countingPool{opens: map[string]int{}, fail: map[string]bool{}}
	p.Pool = memory.NewPool(st, func(name string) (*memory.Memory, error) {
		p.mu.Lock()
		p.opens[name]++
		fail := p.fail[name]
		p.mu.Unlock()
		if fail {
			return nil, errors.New("open failed")
		}
		return memory.Open(st, memory.Options{Retriever: name})
	})
	return p
}

// bumpVectors writes vectors of another model, which changes the store's
// content key as `linemem embed` does.
func bumpVectors(t *testing.T, st *store.Store, model string) {
	t.Helper()
	chunks, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	rows := []store.VectorRow{{Key: chunks[0].ID, Vector: []float32{1, 0}}}
	if err := st.PutChunkVectors(represent.RawText, model, represent.DefaultEmbeddingCap, rows); err != nil {
		t.Fatal(err)
	}
}

func TestPool(t *testing.T) {
	st := historyStore(t)
	type step struct {
		get       string // retriever to Get
		bump      bool   // change the content first
		fail      bool   // the opener fails on this step
		wantOpens int    // opens of get so far
		wantSame  bool   // the same memory as the previous Get of get
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"kept", []step{{get: "", wantOpens: 1}, {get: "", wantOpens: 1, wantSame: true}}},
		{"one per retriever", []step{{get: "", wantOpens: 1}, {get: "raw_text_vector", wantOpens: 1}, {get: "", wantOpens: 1, wantSame: true}}},
		{"reopened when the content changes", []step{{get: "", wantOpens: 1}, {get: "", bump: true, wantOpens: 2}, {get: "", wantOpens: 2, wantSame: true}}},
		{"an error is not kept", []step{{get: "", fail: true, wantOpens: 1}, {get: "", wantOpens: 2}, {get: "", wantOpens: 2, wantSame: true}}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newCountingPool(st)
			last := map[string]*memory.Memory{}
			for j, s := range c.steps {
				if s.bump {
					bumpVectors(t, st, c.name)
				}
				p.mu.Lock()
				p.fail[s.get] = s.fail
				p.mu.Unlock()
				m, err := p.Get(s.get)
				if s.fail != (err != nil) {
					t.Fatalf("case %d step %d: err = %v, want failure %v", i, j, err, s.fail)
				}
				if got := p.opens[s.get]; got != s.wantOpens {
					t.Errorf("step %d: %d opens of %q, want %d", j, got, s.get, s.wantOpens)
				}
				if same := m != nil && m == last[s.get]; same != s.wantSame {
					t.Errorf("step %d: same memory as before = %v, want %v", j, same, s.wantSame)
				}
				if m != nil {
					last[s.get] = m
				}
			}
		})
	}
}

// TestPoolConcurrentFirstUse: many callers asking for one retriever at once
// open it once and share it.
func TestPoolConcurrentFirstUse(t *testing.T) {
	st := historyStore(t)
	var opens atomic.Int32
	release := make(chan struct{})
	p := memory.NewPool(st, func(name string) (*memory.Memory, error) {
		opens.Add(1)
		<-release
		return memory.Open(st, memory.Options{Retriever: name})
	})
	const callers = 16
	got := make([]*memory.Memory, callers)
	var wg, started sync.WaitGroup
	started.Add(callers)
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started.Done()
			m, err := p.Get("raw_text_bm25")
			if err != nil {
				t.Error(err)
			}
			got[i] = m
		}()
	}
	// The first open is held until every caller has started and had time
	// to reach Get, so the others find it under way.
	started.Wait()
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := opens.Load(); n != 1 {
		t.Errorf("%d opens for %d concurrent callers, want 1", n, callers)
	}
	for i, m := range got {
		if m == nil || m != got[0] {
			t.Errorf("caller %d got another memory", i)
		}
	}
}

package job

import (
	"context"

	"github.com/linemem/linemem/lib/provider/cache"
)

// flushEvery bounds how many cache hits are written to the store per transaction.
const flushEvery = 512

// loop is the run both jobs share, over store rows of type R (summaries or
// vectors): every item with a cached output is written to the store, then the
// cache misses are sent, a batch at a time, each item claimed right before
// it is sent (see decide). An item another run is sending is looked at again
// after ClaimPoll; one whose output that run has put in the cache meanwhile
// is written like a cache hit. Claims are released after each batch, whether
// it succeeded or not. While the run lasts its claims are renewed every
// cache.ClaimHeartbeat, and a claim whose holder is gone is taken over at once.
type loop[R any] struct {
	// rows are the store rows of an output shared by keys.
	rows func(keys []string, out *cache.Output) []R
	// put writes rows to the store.
	put func([]R) error
	// batches cuts the items to send into requests, in order.
	batches func([]*item) [][]*item
	// send sends one batch this run holds the claims of, records the
	// outcome in the report and writes the outputs to the cache and store.
	send func(batch []*item) error
}

// run handles items (from collate) and stops at the first error: the
// context's (then rep.Interrupted is set), send's, or a store or cache error.
func (l loop[R]) run(ctx context.Context, c *cache.Cache, items []*item, rep *Report, prog *progress) error {
	var pending []R
	var misses []*item
	for _, it := range items {
		if it.cached == nil {
			misses = append(misses, it)
			continue
		}
		pending = append(pending, l.rows(it.keys, it.cached)...)
		rep.Cached += len(it.keys)
		prog.add(len(it.keys))
		if len(pending) >= flushEvery {
			if err := l.put(pending); err != nil {
				return err
			}
			pending = pending[:0]
		}
	}
	if len(pending) > 0 {
		if err := l.put(pending); err != nil {
			return err
		}
	}
	owner := cache.NewOwner()
	defer heartbeat(ctx, c, owner)()
	for queue := misses; len(queue) > 0; {
		var later []*item
		for _, batch := range l.batches(queue) {
			if err := ctx.Err(); err != nil {
				rep.Interrupted = true
				return err
			}
			var mine []*item
			for _, it := range batch {
				d, err := decide(ctx, c, it, owner, rep)
				if err != nil {
					return err
				}
				switch d {
				case send:
					mine = append(mine, it)
				case wait:
					later = append(later, it)
				case fromPeer:
					if err := l.put(l.rows(it.keys, it.cached)); err != nil {
						return err
					}
					rep.Cached += len(it.keys)
					prog.add(len(it.keys))
				}
			}
			if len(mine) == 0 {
				continue
			}
			err := l.send(mine)
			release(ctx, c, mine, owner)
			if err != nil {
				return err
			}
		}
		if len(later) > 0 {
			if err := pause(ctx); err != nil {
				rep.Interrupted = true
				return err
			}
		}
		queue = later
	}
	return nil
}

// oneByOne is the batching of a provider that takes one input per request.
func oneByOne(items []*item) [][]*item {
	out := make([][]*item, len(items))
	for i, it := range items {
		out[i] = []*item{it}
	}
	return out
}

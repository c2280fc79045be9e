package job

import (
	"context"
	"time"

	"github.com/linemem/linemem/lib/provider/cache"
)

// ClaimPoll is how long a run waits before looking again at items another
// run is sending.
var ClaimPoll = 250 * time.Millisecond

// decision is what a run does with one item right before sending it.
type decision int

const (
	send     decision = iota // this run holds the claim: send it
	fromPeer                 // another run has put the output in the cache meanwhile
	wait                     // another run is sending it now
)

// decide re-reads the cache for it (another run sharing the database may have
// paid for it since this run planned), claims its key, and reads the cache
// once more. On fromPeer, it.cached holds the output. A claim taken over from
// a run that is gone is counted in rep.TookOver.
func decide(ctx context.Context, c *cache.Cache, it *item, owner cache.Owner, rep *Report) (decision, error) {
	if o, ok, err := c.Get(ctx, it.key); err != nil {
		return 0, err
	} else if ok {
		it.cached = &o
		return fromPeer, nil
	}
	claimed, err := c.Claim(ctx, it.key, owner)
	if err != nil {
		return 0, err
	}
	mine := claimed.Held
	if claimed.TookOver {
		rep.TookOver++
	}
	// A holder puts its output in the cache before it releases its claim, so
	// a claim won (or refused) after that finds the output here.
	if o, ok, err := c.Get(ctx, it.key); err != nil {
		return 0, err
	} else if ok {
		if mine {
			release(ctx, c, []*item{it}, owner)
		}
		it.cached = &o
		return fromPeer, nil
	}
	if mine {
		return send, nil
	}
	return wait, nil
}

// release drops this run's claims on items; a paid-for output is in the cache
// by then, so a failure to release only delays others until the heartbeat
// stops and the claim grows stale (cache.ClaimStale).
func release(ctx context.Context, c *cache.Cache, items []*item, owner cache.Owner) {
	for _, it := range items {
		_ = c.Release(detached(ctx), it.key, owner)
	}
}

// pause waits ClaimPoll or until ctx ends.
func pause(ctx context.Context) error {
	t := time.NewTimer(ClaimPoll)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// heartbeat renews owner's claims every cache.ClaimHeartbeat until stop is
// called, so that other runs see the owner alive while a request runs.
func heartbeat(ctx context.Context, c *cache.Cache, owner cache.Owner) (stop func()) {
	ctx, cancel := context.WithCancel(detached(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(cache.ClaimHeartbeat)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				_ = c.Renew(ctx, owner)
			}
		}
	}()
	return func() { cancel(); <-done }
}

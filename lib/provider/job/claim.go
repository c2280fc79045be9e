package job

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/linemem/linemem/lib/provider/cache"
)

// ClaimPoll is how long a run waits before looking again at items another
// run is sending.
var ClaimPoll = 250 * time.Millisecond

// newOwner names one run in the claims table: process ID and random bits.
func newOwner() string {
	b := make([]byte, 6)
	rand.Read(b)
	return fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(b))
}

// decision is what a run does with one item right before sending it.
type decision int

const (
	send     decision = iota // this run holds the claim: send it
	fromPeer                 // another run has put the output in the cache meanwhile
	wait                     // another run is sending it now
)

// decide re-reads the cache for it (another run sharing the database may have
// paid for it since this run planned), claims its key, and reads the cache
// once more. On fromPeer, it.cached holds the output.
func decide(ctx context.Context, c *cache.Cache, it *item, owner string) (decision, error) {
	if o, ok, err := c.Get(ctx, it.key); err != nil {
		return 0, err
	} else if ok {
		it.cached = &o
		return fromPeer, nil
	}
	mine, err := c.Claim(ctx, it.key, owner, cache.ClaimTTL)
	if err != nil {
		return 0, err
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
// by then, so a failure to release only delays others until cache.ClaimTTL.
func release(ctx context.Context, c *cache.Cache, items []*item, owner string) {
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

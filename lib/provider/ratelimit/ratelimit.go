// Package ratelimit paces requests on the client side: at most
// RequestsPerMinute requests and TokensPerMinute (estimated) tokens per
// minute, and at least Interval between the starts of two requests (the
// paper's 0.2 s pause between summary calls).
//
// Each limit is a golang.org/x/time/rate token bucket: a per-minute limit L
// has capacity L, is refilled at L/60 s⁻¹ and starts full, so a burst of up
// to L is allowed and the long-run rate is L per minute; the interval is a
// bucket of capacity 1 refilled once per Interval. A request waits until
// every bucket holds what it needs, then takes it from all of them at once.
// A request that needs more than L tokens waits for a full bucket and then
// drives it negative by the excess (a reservation), so the next request
// waits longer and the long-run rate stays L.
package ratelimit

import (
	"context"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/linemem/linemem/lib/provider/retry"
)

// Config sets the limits; zero disables one.
type Config struct {
	RequestsPerMinute int
	TokensPerMinute   int
	Interval          time.Duration
}

// Clock abstracts time so tests need not wait.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	return retry.SleepContext(ctx, d)
}

// Limiter is safe for concurrent use; waiters are served one at a time.
type Limiter struct {
	clock Clock

	mu                         sync.Mutex
	requests, tokens, interval *rate.Limiter // nil when disabled
}

// New returns a limiter on the wall clock.
func New(cfg Config) *Limiter { return NewWithClock(cfg, realClock{}) }

// NewWithClock returns a limiter on clock.
func NewWithClock(cfg Config, clock Clock) *Limiter {
	l := &Limiter{clock: clock}
	perMinute := func(n int) *rate.Limiter {
		if n <= 0 {
			return nil
		}
		return rate.NewLimiter(rate.Limit(float64(n)/60), n)
	}
	l.requests, l.tokens = perMinute(cfg.RequestsPerMinute), perMinute(cfg.TokensPerMinute)
	if cfg.Interval > 0 {
		l.interval = rate.NewLimiter(rate.Every(cfg.Interval), 1)
	}
	return l
}

// Wait blocks until a request of the given estimated tokens may start, then
// charges it. It returns ctx.Err() if ctx ends first (nothing is charged).
func (l *Limiter) Wait(ctx context.Context, tokens int) error {
	if l == nil {
		return ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	need := []struct {
		lim *rate.Limiter
		n   int
	}{{l.requests, 1}, {l.interval, 1}, {l.tokens, tokens}}
	for {
		now := l.clock.Now()
		var wait time.Duration
		for _, x := range need {
			if x.lim != nil {
				wait = max(wait, untilAvailable(x.lim, now, min(x.n, x.lim.Burst())))
			}
		}
		if wait <= 0 {
			for _, x := range need {
				if x.lim != nil {
					charge(x.lim, now, x.n)
				}
			}
			return nil
		}
		if err := l.clock.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// untilAvailable is the time until lim holds n tokens (≤ 0: now), rounded up
// to the nanosecond so that a wait of that length is enough.
func untilAvailable(lim *rate.Limiter, now time.Time, n int) time.Duration {
	missing := float64(n) - lim.TokensAt(now)
	if missing <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(missing / float64(lim.Limit()) * float64(time.Second)))
}

// charge takes n tokens from lim at now: all it holds when n exceeds its
// capacity, and the excess as reservations that drive the bucket negative.
func charge(lim *rate.Limiter, now time.Time, n int) {
	burst := lim.Burst()
	first := min(n, burst)
	lim.AllowN(now, first)
	for rest := n - first; rest > 0; rest -= burst {
		lim.ReserveN(now, min(rest, burst))
	}
}

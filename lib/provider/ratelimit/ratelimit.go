// Package ratelimit paces requests on the client side: at most
// RequestsPerMinute requests and TokensPerMinute (estimated) tokens per
// minute, and at least Interval between the starts of two requests (the
// paper's 0.2 s pause between summary calls).
//
// Each per-minute limit is a token bucket of capacity L refilled at L/60 s⁻¹
// and starting full, so a burst of up to L is allowed and the long-run rate
// is L per minute. A request that needs more than L tokens waits for a full
// bucket and then drives it negative, so the next request waits longer.
package ratelimit

import (
	"context"
	"sync"
	"time"

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
	cfg   Config
	clock Clock

	mu       sync.Mutex
	started  bool
	last     time.Time // previous grant
	reqLevel float64   // requests available
	tokLevel float64   // tokens available
	lastFill time.Time
}

// New returns a limiter on the wall clock.
func New(cfg Config) *Limiter { return NewWithClock(cfg, realClock{}) }

// NewWithClock returns a limiter on clock.
func NewWithClock(cfg Config, clock Clock) *Limiter {
	return &Limiter{cfg: cfg, clock: clock, reqLevel: float64(cfg.RequestsPerMinute), tokLevel: float64(cfg.TokensPerMinute)}
}

// Wait blocks until a request of the given estimated tokens may start, then
// charges it. It returns ctx.Err() if ctx ends first (nothing is charged).
func (l *Limiter) Wait(ctx context.Context, tokens int) error {
	if l == nil {
		return ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		now := l.clock.Now()
		l.refill(now)
		wait := l.waitFor(now, tokens)
		if wait <= 0 {
			l.started = true
			l.last = now
			if l.cfg.RequestsPerMinute > 0 {
				l.reqLevel--
			}
			if l.cfg.TokensPerMinute > 0 {
				l.tokLevel -= float64(tokens)
			}
			return nil
		}
		if err := l.clock.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

func (l *Limiter) refill(now time.Time) {
	if !l.lastFill.IsZero() {
		dt := now.Sub(l.lastFill).Minutes()
		if r := float64(l.cfg.RequestsPerMinute); r > 0 {
			l.reqLevel = min(r, l.reqLevel+dt*r)
		}
		if t := float64(l.cfg.TokensPerMinute); t > 0 {
			l.tokLevel = min(t, l.tokLevel+dt*t)
		}
	}
	l.lastFill = now
}

// waitFor is the time until every limit admits the request (≤ 0: now).
func (l *Limiter) waitFor(now time.Time, tokens int) time.Duration {
	var wait time.Duration
	if l.started && l.cfg.Interval > 0 {
		wait = max(wait, l.last.Add(l.cfg.Interval).Sub(now))
	}
	if r := float64(l.cfg.RequestsPerMinute); r > 0 && l.reqLevel < 1 {
		wait = max(wait, minutes((1-l.reqLevel)/r))
	}
	if t := float64(l.cfg.TokensPerMinute); t > 0 {
		need := min(float64(tokens), t)
		if l.tokLevel < need {
			wait = max(wait, minutes((need-l.tokLevel)/t))
		}
	}
	return wait
}

func minutes(m float64) time.Duration {
	d := time.Duration(m * float64(time.Minute))
	if d <= 0 {
		d = time.Nanosecond
	}
	return d
}

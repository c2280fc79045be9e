package ratelimit_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/provider/ratelimit"
)

// fakeClock advances only when the limiter sleeps.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.t = c.t.Add(d)
	return ctx.Err()
}

// starts returns the offsets from the first grant at which n requests of
// the given tokens are granted.
func starts(cfg ratelimit.Config, n, tokens int) []time.Duration {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := ratelimit.NewWithClock(cfg, clock)
	var out []time.Duration
	for range n {
		l.Wait(context.Background(), tokens)
		out = append(out, clock.t.Sub(time.Unix(0, 0)).Round(time.Millisecond))
	}
	return out
}

func TestLimits(t *testing.T) {
	cases := []struct {
		name   string
		cfg    ratelimit.Config
		n, tok int
		want   string
	}{
		{"unlimited", ratelimit.Config{}, 3, 10, "[0s 0s 0s]"},
		{"interval", ratelimit.Config{Interval: 200 * time.Millisecond}, 4, 10, "[0s 200ms 400ms 600ms]"},
		// 60 rpm: a burst of 60 is free, then one per second.
		{"requests per minute", ratelimit.Config{RequestsPerMinute: 2}, 4, 10, "[0s 0s 30s 1m0s]"},
		// 1,000 tpm, 400 tokens each: two fit (200 left); the third waits for
		// 200 more (12 s), the fourth for 400 (24 s).
		{"tokens per minute", ratelimit.Config{TokensPerMinute: 1000}, 4, 400, "[0s 0s 12s 36s]"},
		// 150 tokens against a bucket of 100: each waits for a full bucket, and
		// the grant leaves it at −50, so the next full bucket is 90 s away.
		{"oversized request", ratelimit.Config{TokensPerMinute: 100}, 3, 150, "[0s 1m30s 3m0s]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fmt.Sprint(starts(c.cfg, c.n, c.tok)); got != c.want {
				t.Errorf("starts %s, want %s", got, c.want)
			}
		})
	}
}

func TestCancelled(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := ratelimit.NewWithClock(ratelimit.Config{Interval: time.Hour}, clock)
	l.Wait(context.Background(), 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Wait(ctx, 0); err == nil {
		t.Error("cancelled wait returned nil")
	}
	var nilLimiter *ratelimit.Limiter
	if err := nilLimiter.Wait(context.Background(), 5); err != nil {
		t.Errorf("nil limiter: %v", err)
	}
}

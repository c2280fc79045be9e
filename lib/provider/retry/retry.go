// Package retry repeats a failing request with exponential backoff and
// jitter, honouring a server's Retry-After, and counts the attempts so that
// provenance can record them.
//
// Delay before attempt n+1 (n ≥ 1 failed attempts):
//
//	backoff(n) = min(Max, Base·2^(n−1)) · (1 − Jitter·U),  U ~ Uniform[0, 1)
//	delay(n)   = max(backoff(n), RetryAfter)
//
// so Jitter = 0 gives plain doubling and Jitter = 1 gives "full jitter". U
// comes from an injected, seeded source: two runs with the same seed wait the
// same times.
package retry

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Policy configures Do. The zero value is not useful; start from Default.
type Policy struct {
	MaxAttempts int           // total attempts including the first, ≥ 1
	Base        time.Duration // backoff after the first failure
	Max         time.Duration // cap on the exponential backoff (Retry-After may exceed it)
	Jitter      float64       // fraction of the backoff removed at random, in [0, 1]
	Rand        JitterSource  // nil = no jitter
	// MaxRetryAfter is the longest server-requested wait honoured; a longer
	// Retry-After ends the retries (the caller reports a transient failure
	// and a rerun resumes later). 0 = no limit.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx is done; nil = a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Default is 6 attempts, 1 s doubling to at most 60 s, half jitter from a
// source seeded with seed, and server-requested waits of up to 10 minutes.
func Default(seed uint64) Policy {
	return Policy{
		MaxAttempts: 6,
		Base:        time.Second,
		Max:         time.Minute,
		Jitter:      0.5,
		Rand:        NewJitterSource(seed),

		MaxRetryAfter: 10 * time.Minute,
	}
}

// JitterSource yields U ~ Uniform[0, 1).
type JitterSource interface {
	Float64() float64
}

// NewJitterSource returns a PCG-seeded source that is safe for concurrent use.
func NewJitterSource(seed uint64) JitterSource {
	return &lockedRand{r: rand.New(rand.NewPCG(seed, 0x6c696e656d656d))}
}

type lockedRand struct {
	mu sync.Mutex
	r  *rand.Rand
}

func (l *lockedRand) Float64() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Float64()
}

// Outcome classifies one failed attempt.
type Outcome struct {
	Retry      bool          // worth another attempt
	RetryAfter time.Duration // server-requested minimum wait, 0 if none
}

// Classifier decides whether an attempt's error is worth retrying.
type Classifier func(err error) Outcome

// Do calls attempt until it returns nil, classify says not to retry, attempts
// run out, or ctx is done. It returns the number of attempts made and the last
// error (ctx.Err() when the context ended while waiting).
func (p Policy) Do(ctx context.Context, classify Classifier, attempt func(ctx context.Context) error) (int, error) {
	maxAttempts := max(p.MaxAttempts, 1)
	for n := 1; ; n++ {
		err := attempt(ctx)
		if err == nil {
			return n, nil
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		out := classify(err)
		if !out.Retry || n >= maxAttempts || (p.MaxRetryAfter > 0 && out.RetryAfter > p.MaxRetryAfter) {
			return n, err
		}
		if serr := p.sleep(ctx, max(p.Backoff(n), out.RetryAfter)); serr != nil {
			return n, serr
		}
	}
}

// Backoff is the jittered exponential delay after n failed attempts (n ≥ 1).
func (p Policy) Backoff(n int) time.Duration {
	d := p.Base
	for i := 1; i < n && d < p.Max; i++ {
		d *= 2
	}
	if p.Max > 0 && d > p.Max {
		d = p.Max
	}
	if p.Rand != nil && p.Jitter > 0 {
		d = time.Duration(float64(d) * (1 - p.Jitter*p.Rand.Float64()))
	}
	return d
}

func (p Policy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	return SleepContext(ctx, d)
}

// SleepContext waits d or until ctx is done, returning ctx.Err() in the latter case.
func SleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RetryAfter reads the wait a response asks for: the `retry-after-ms` header
// (milliseconds, sent by OpenAI), else `Retry-After` as delay-seconds or an
// HTTP date (relative to now). It returns 0 when there is none or it is in
// the past.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// HTTPStatusRetryable reports whether an HTTP status is transient: 408, 409,
// 429 and every 5xx.
func HTTPStatusRetryable(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= 500
}

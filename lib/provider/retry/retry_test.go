package retry_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/provider/retry"
)

var errTransient = errors.New("transient")

func classify(err error) retry.Outcome {
	return retry.Outcome{Retry: errors.Is(err, errTransient)}
}

func TestDo(t *testing.T) {
	cases := []struct {
		name         string
		errs         []error // attempt i returns errs[i] (nil = success)
		max          int
		wantAttempts int
		wantErr      error
	}{
		{"first succeeds", []error{nil}, 3, 1, nil},
		{"transient then success", []error{errTransient, errTransient, nil}, 3, 3, nil},
		{"attempts run out", []error{errTransient, errTransient, errTransient, nil}, 3, 3, errTransient},
		{"permanent stops at once", []error{errors.New("bad request"), nil}, 3, 1, nil},
		{"max below one means one", []error{errTransient, nil}, 0, 1, errTransient},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var waits []time.Duration
			p := retry.Policy{MaxAttempts: c.max, Base: time.Second, Max: 8 * time.Second,
				Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
			calls := 0
			n, err := p.Do(context.Background(), classify, func(context.Context) error {
				calls++
				return c.errs[calls-1]
			})
			if n != c.wantAttempts || calls != n {
				t.Errorf("attempts %d (calls %d), want %d", n, calls, c.wantAttempts)
			}
			if c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("err = %v, want %v", err, c.wantErr)
			}
			if len(waits) != max(n-1, 0) && err == nil {
				t.Errorf("waits %v after %d attempts", waits, n)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	p := retry.Policy{Base: time.Second, Max: 5 * time.Second}
	var got []time.Duration
	for n := 1; n <= 5; n++ {
		got = append(got, p.Backoff(n))
	}
	if fmt.Sprint(got) != "[1s 2s 4s 5s 5s]" { // doubling, capped at Max
		t.Errorf("backoff = %v", got)
	}
	a, b := retry.Default(42), retry.Default(42)
	for n := 1; n <= 6; n++ {
		da, db := a.Backoff(n), b.Backoff(n)
		if da != db {
			t.Fatalf("same seed, different jitter at %d: %v %v", n, da, db)
		}
		full := min(time.Second<<(n-1), time.Minute)
		if da > full || da < full/2 { // Jitter 0.5 removes at most half
			t.Errorf("attempt %d: %v outside [%v, %v]", n, da, full/2, full)
		}
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	var waits []time.Duration
	p := retry.Policy{MaxAttempts: 2, Base: time.Millisecond, Max: time.Millisecond,
		Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	calls := 0
	p.Do(context.Background(), func(error) retry.Outcome { return retry.Outcome{Retry: true, RetryAfter: 3 * time.Second} },
		func(context.Context) error { calls++; return errTransient })
	if len(waits) != 1 || waits[0] != 3*time.Second {
		t.Errorf("waits = %v, want [3s]", waits)
	}
}

func TestRetryAfterTooLong(t *testing.T) {
	p := retry.Policy{MaxAttempts: 5, MaxRetryAfter: time.Minute,
		Sleep: func(context.Context, time.Duration) error { t.Error("slept"); return nil }}
	n, err := p.Do(context.Background(), func(error) retry.Outcome { return retry.Outcome{Retry: true, RetryAfter: time.Hour} },
		func(context.Context) error { return errTransient })
	if n != 1 || !errors.Is(err, errTransient) {
		t.Errorf("n=%d err=%v", n, err)
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := retry.Policy{MaxAttempts: 5, Base: time.Hour, Max: time.Hour}
	n, err := p.Do(ctx, classify, func(context.Context) error { cancel(); return errTransient })
	if n != 1 || !errors.Is(err, context.Canceled) {
		t.Errorf("n=%d err=%v", n, err)
	}
}

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{"fractional seconds", http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{"milliseconds win", http.Header{"Retry-After": {"7"}, "Retry-After-Ms": {"250"}}, 250 * time.Millisecond},
		{"http date", http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
		{"negative", http.Header{"Retry-After": {"-3"}}, 0},
	}
	for _, c := range cases {
		if got := retry.RetryAfter(c.header, now); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestHTTPStatusRetryable(t *testing.T) {
	for status, want := range map[int]bool{400: false, 401: false, 403: false, 404: false, 408: true, 409: true, 422: false, 429: true, 500: true, 502: true, 503: true} {
		if got := retry.HTTPStatusRetryable(status); got != want {
			t.Errorf("%d: %v, want %v", status, got, want)
		}
	}
}

func ExamplePolicy_Backoff() {
	p := retry.Policy{Base: 500 * time.Millisecond, Max: 4 * time.Second}
	for n := 1; n <= 5; n++ {
		fmt.Print(p.Backoff(n), " ")
	}
	fmt.Println()
	// Output: 500ms 1s 2s 4s 4s
}

package job

import (
	"errors"
	"fmt"
)

// DefaultMaxConsecutiveFailures is how many requests in a row may fail before
// a run stops (Options.MaxConsecutiveFailures = 0): a dead or misconfigured
// endpoint fails every request, and going on would only cost time.
const DefaultMaxConsecutiveFailures = 5

// ErrTooManyFailures is wrapped by the error of a run stopped by
// Options.MaxConsecutiveFailures.
var ErrTooManyFailures = errors.New("too many consecutive failures")

// streak counts failed requests since the last success.
type streak struct {
	n, max int
}

// newStreak applies the default: 0 → DefaultMaxConsecutiveFailures, < 0 → no limit.
func (o Options) newStreak() *streak {
	m := o.MaxConsecutiveFailures
	if m == 0 {
		m = DefaultMaxConsecutiveFailures
	}
	return &streak{max: m}
}

func (s *streak) ok() { s.n = 0 }

// fail counts one failed request and returns the error that stops the run
// once max requests in a row have failed.
func (s *streak) fail(err error) error {
	s.n++
	if s.max < 0 || s.n < s.max {
		return nil
	}
	return fmt.Errorf("%w: the last %d requests failed, the last with %s; check the endpoint (--base-url, OPENAI_BASE_URL) and rerun: finished items are kept and not sent again", ErrTooManyFailures, s.n, failureReason(err))
}

package beyond

import (
	"maps"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
)

// Sessions are cut per source in time order, a new one after a gap
// strictly longer than gapMinutes, and numbered from 0 within each source.
func TestMessageSessions(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)
	msg := func(id, source string, order int, minutes float64) chat.Message {
		return chat.Message{ID: id, Source: source, SourceOrder: order, OccurredAt: t0.Add(time.Duration(minutes * float64(time.Minute)))}
	}
	const gap = 180
	for _, tc := range []struct {
		name string
		msgs []chat.Message
		want map[string]string
	}{
		{"no messages", nil, map[string]string{}},
		{"exactly the gap does not split", []chat.Message{msg("a", "x", 0, 0), msg("b", "x", 1, gap)},
			map[string]string{"a": "x#0", "b": "x#0"}},
		{"one minute more splits", []chat.Message{msg("a", "x", 0, 0), msg("b", "x", 1, gap+1)},
			map[string]string{"a": "x#0", "b": "x#1"}},
		{"time order, not input order", []chat.Message{msg("late", "x", 1, gap+2), msg("early", "x", 0, 0), msg("mid", "x", 2, 1)},
			map[string]string{"early": "x#0", "mid": "x#0", "late": "x#1"}},
		{"each source numbers its own sessions", []chat.Message{msg("a", "x", 0, 0), msg("b", "y", 0, 2*gap), msg("c", "y", 1, 4*gap)},
			map[string]string{"a": "x#0", "b": "y#0", "c": "y#1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := messageSessions(tc.msgs, gap); !maps.Equal(got, tc.want) {
				t.Errorf("sessions = %v, want %v", got, tc.want)
			}
		})
	}
}

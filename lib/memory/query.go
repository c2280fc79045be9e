package memory

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
)

// Filters are a search's filters as a person or a client typed them: the
// one grammar of `linemem search`, the web app's Search page and the MCP
// search_memory tool (ParseFilters).
//
//   - Since and Until: YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or the same with a
//     space for T, in the chat's local time as stored; or RFC 3339 with Z or
//     an offset (2024-10-15T20:00:00+09:00, fractional seconds allowed),
//     converted to the local time zone (time.Local, from TZ) and compared by
//     wall clock. A bare date as Until is the last second of that day.
//   - Sources: chat names, each entry one name or a comma list of names. A
//     name equal to a source's file name or chat title picks that source;
//     else NameMatches on either (the start of the name or a whole word of
//     it, any case and width). A name that picks nothing is an error
//     offering the closest names.
//   - Sender: one name, matched by NameMatches against the senders of the
//     messages; one that names nobody who wrote is an error offering the
//     closest senders. "Me" and "自分" (the user in English and Japanese
//     exports) stand for each other when only the other one wrote.
type Filters struct {
	Since, Until string
	Sources      []string
	Sender       string
}

// UserNames are the names LINE exports give the user: "Me" in English,
// "自分" in Japanese. Either, as a sender filter, names the other when only
// the other wrote.
var UserNames = []string{"Me", "自分"}

// timeLayouts are the zone-less forms of Filters.Since and Until.
var timeLayouts = []string{chat.DateLayout, "2006-01-02T15:04", chat.TimestampLayout, "2006-01-02 15:04", "2006-01-02 15:04:05"}

// ParseTime reads a Since or Until filter (see Filters); "" is the zero
// time, upper makes a bare date its last second. A date may be written with
// slashes, as LINE writes it (2024/10/01 is 2024-10-01). A value in no
// accepted form is an error wrapping ErrBadQuery that lists the forms.
func ParseTime(typed string, upper bool) (time.Time, error) {
	v := strings.ReplaceAll(strings.TrimSpace(typed), "/", "-")
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, v); err == nil {
			if upper && layout == chat.DateLayout {
				t = t.Add(24*time.Hour - time.Second)
			}
			return t, nil
		}
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		lt := t.In(time.Local)
		return time.Date(lt.Year(), lt.Month(), lt.Day(), lt.Hour(), lt.Minute(), lt.Second(), 0, time.UTC), nil
	}
	return time.Time{}, fmt.Errorf("%w: %q is not a date; use YYYY-MM-DD (or YYYY/MM/DD), YYYY-MM-DDTHH:MM[:SS] or RFC 3339 (2024-10-15T20:00:00+09:00)", ErrBadQuery, cutRunes(strings.TrimSpace(typed), 40))
}

// SplitNames splits each entry of lists at commas and returns the names
// with surrounding white space removed, empty ones dropped, in order.
func SplitNames(lists ...string) []string {
	var out []string
	for _, l := range lists {
		for _, n := range strings.Split(l, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// ParseFilters applies f to q: Since and Until parsed, Sources resolved to
// stored source names and Sender checked (see Filters). When allowed is not
// nil, only those sources may be named, and only their names are offered in
// an error. An error wraps ErrBadQuery (an unknown name also ErrNoSuchName)
// and leaves q as it was.
func (m *Memory) ParseFilters(q *Query, f Filters, allowed []string) error {
	since, err := ParseTime(f.Since, false)
	if err != nil {
		return fmt.Errorf("since: %w", err)
	}
	until, err := ParseTime(f.Until, true)
	if err != nil {
		return fmt.Errorf("until: %w", err)
	}
	sources := allowed
	if names := SplitNames(f.Sources...); len(names) > 0 {
		if sources, err = m.resolveSources(names, allowed); err != nil {
			return err
		}
	}
	sender := strings.TrimSpace(f.Sender)
	if sender != "" {
		if sender, err = m.resolveSender(sender); err != nil {
			return err
		}
	}
	q.Since, q.Until, q.Sources, q.Sender = since, until, sources, sender
	return nil
}

// resolveSources is ResolveSources over the sources in allowed (nil: all),
// a name equal to a file name or chat title picking that source alone.
func (m *Memory) resolveSources(names, allowed []string) ([]string, error) {
	infos, err := m.Sources()
	if err != nil {
		return nil, err
	}
	var shown []SourceInfo
	for _, si := range infos {
		if allowed == nil || slices.Contains(allowed, si.Name) {
			shown = append(shown, si)
		}
	}
	keep := map[string]bool{}
	for _, f := range names {
		var exact, loose []string
		for _, si := range shown {
			switch {
			case si.Name == f || si.Title != "" && si.Title == f:
				exact = append(exact, si.Name)
			case NameMatches(si.Name, f) || si.Title != "" && NameMatches(si.Title, f):
				loose = append(loose, si.Name)
			}
		}
		if len(exact) == 0 && len(loose) == 0 {
			var all []string
			for _, si := range shown {
				all = append(all, si.Name)
				if si.Title != "" {
					all = append(all, si.Title)
				}
			}
			return nil, noSuchName{fmt.Sprintf("no chat is called %q; closest: %s", cutRunes(f, 40), quoteList(Closest(all, f, closestLimit)))}
		}
		if len(exact) == 0 {
			exact = loose
		}
		for _, n := range exact {
			keep[n] = true
		}
	}
	var out []string
	for _, si := range shown {
		if keep[si.Name] {
			out = append(out, si.Name)
		}
	}
	return out, nil
}

// resolveSender returns sender when it names someone who wrote, else the
// other of UserNames when sender is one of them and the other wrote; else
// CheckSender's error.
func (m *Memory) resolveSender(sender string) (string, error) {
	err := m.CheckSender(sender)
	if err == nil {
		return sender, nil
	}
	for i, u := range UserNames {
		if foldName(u) == foldName(sender) {
			other := UserNames[1-i]
			if m.CheckSender(other) == nil {
				return other, nil
			}
		}
	}
	return "", err
}

// cutRunes shortens s to n runes for a message, marking the cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

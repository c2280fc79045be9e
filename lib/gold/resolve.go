package gold

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/ranking"
)

// Matching parameters of the excerpt search.
const (
	// DateTolerance is how many days an excerpt match may lie from the
	// evidence date: question-writing tools misdate messages near midnight
	// and quote a day late or early.
	DateTolerance = 2
	// MinExcerptRunes is the shortest normalised excerpt that is searched;
	// shorter excerpts ("了解", "笑") match too many messages to mean anything.
	MinExcerptRunes = 4
)

// How an evidence item was matched.
const (
	MatchExact     = "exact"     // source, date, time, sender and text prefix all agree
	MatchExcerpt   = "excerpt"   // normalised excerpt found in a message of the same source near the date
	MatchUnmatched = "unmatched" // no message found
)

// ItemResult is the fate of one evidence item.
type ItemResult struct {
	QID        string
	Index      int    // position of the item in the question's evidence list
	Item       Item   // the item as read
	Match      string // MatchExact, MatchExcerpt or MatchUnmatched
	MessageID  string // the matched message; empty when unmatched
	Candidates int    // messages that qualified at the deciding stage (more than 1: the best was taken)
	ChunkIDs   []string
}

// Report accounts for every evidence item: nothing is dropped silently.
type Report struct {
	Questions int
	Items     []ItemResult // every item, in evidence order
	Exact     int          // items matched exactly
	Excerpt   int          // items recovered by excerpt search
	Unmatched []ItemResult // items that matched no message
	Unchunked []ItemResult // items whose message belongs to no chunk (trimmed by the render limit)
	NoPrimary []string     // qids left without any relevance-2 chunk, in evidence order
	Rel2      int          // (question, chunk) pairs with relevance 2
	Rel1      int          // (question, chunk) pairs with relevance 1
}

// Resolve matches evidence items to msgs and grades chunks (paper §4.2–4.3,
// spec §11). Each item is matched in two stages: first exactly (same source,
// date, time to the minute or second given, sender, and a text that begins with
// text_prefix); failing that, by excerpt search: the normalised text_prefix
// (see Normalize) must occur in a message of the same source dated within
// DateTolerance days, preferring a prefix over an inner occurrence, the same
// sender, the nearest time, then the earliest message. A matched message marks
// every chunk that contains it: relevance 2 if the item is an answer, else 1,
// the maximum winning. Questions appear in the qrels only with their graded
// chunks; Report lists unmatched items and questions without relevance 2.
func Resolve(evidence []Evidence, msgs []chat.Message, chunks []chat.Chunk) (ranking.Qrels, Report) {
	idx := newMessageIndex(msgs)
	chunksOf := map[string][]string{}
	for _, c := range chunks {
		for _, id := range c.MessageIDs {
			chunksOf[id] = append(chunksOf[id], c.ID)
		}
	}
	qrels := ranking.Qrels{}
	rep := Report{Questions: len(evidence)}
	for _, ev := range evidence {
		graded := map[string]int{}
		for i, it := range ev.Items {
			res := ItemResult{QID: ev.QID, Index: i, Item: it, Match: MatchUnmatched}
			if m, n := idx.exact(it); m != nil {
				res.Match, res.MessageID, res.Candidates = MatchExact, m.ID, n
				rep.Exact++
			} else if m, n := idx.excerpt(it); m != nil {
				res.Match, res.MessageID, res.Candidates = MatchExcerpt, m.ID, n
				rep.Excerpt++
			}
			if res.Match == MatchUnmatched {
				rep.Unmatched = append(rep.Unmatched, res)
				rep.Items = append(rep.Items, res)
				continue
			}
			res.ChunkIDs = chunksOf[res.MessageID]
			if len(res.ChunkIDs) == 0 {
				rep.Unchunked = append(rep.Unchunked, res)
			}
			rel := 1
			if it.IsAnswer() {
				rel = 2
			}
			for _, cid := range res.ChunkIDs {
				graded[cid] = max(graded[cid], rel)
			}
			rep.Items = append(rep.Items, res)
		}
		primary := false
		for cid, rel := range graded {
			if qrels[ev.QID] == nil {
				qrels[ev.QID] = map[string]int{}
			}
			qrels[ev.QID][cid] = rel
			if rel == 2 {
				primary = true
				rep.Rel2++
			} else {
				rep.Rel1++
			}
		}
		if !primary {
			rep.NoPrimary = append(rep.NoPrimary, ev.QID)
		}
	}
	return qrels, rep
}

// WriteText prints the report for a person: totals, then each unmatched or
// unchunked item and each question without primary gold.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "questions %d, evidence items %d: %d exact, %d by excerpt, %d unmatched, %d in no chunk\n",
		r.Questions, len(r.Items), r.Exact, r.Excerpt, len(r.Unmatched), len(r.Unchunked))
	fmt.Fprintf(&b, "graded chunks: %d relevance 2, %d relevance 1\n", r.Rel2, r.Rel1)
	for _, u := range r.Unmatched {
		fmt.Fprintf(&b, "unmatched: %s item %d (%s %s %s %s %q)\n", u.QID, u.Index, u.Item.Source, u.Item.Date, u.Item.Time, u.Item.Sender, u.Item.TextPrefix)
	}
	for _, u := range r.Unchunked {
		fmt.Fprintf(&b, "in no chunk: %s item %d message %s\n", u.QID, u.Index, u.MessageID)
	}
	for _, q := range r.NoPrimary {
		fmt.Fprintf(&b, "no relevance-2 chunk: %s\n", q)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Normalize prepares text for excerpt search: full-width ASCII becomes
// half-width, ASCII letters are lowercased, and white space, punctuation,
// symbols (emoji included) and the laughing "w" run at the end are removed.
// Kana, kanji and the long-vowel mark are kept as they are.
func Normalize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '！' && r <= '～' {
			r -= 0xFEE0
		}
		switch {
		case unicode.IsSpace(r), unicode.IsPunct(r), unicode.IsSymbol(r), unicode.Is(unicode.Mn, r), r == '\u200d', r == '\ufe0f':
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimRight(b.String(), "w")
}

type messageIndex struct {
	byKey    map[string][]*chat.Message // source, date, HH:MM, sender
	bySource map[string][]*chat.Message // in the given order
	norm     map[string]string          // message ID → Normalize(text)
}

func newMessageIndex(msgs []chat.Message) *messageIndex {
	idx := &messageIndex{byKey: map[string][]*chat.Message{}, bySource: map[string][]*chat.Message{}, norm: map[string]string{}}
	for i := range msgs {
		m := &msgs[i]
		k := exactKey(m.Source, m.Date, minuteOf(m.Time), m.Sender)
		idx.byKey[k] = append(idx.byKey[k], m)
		idx.bySource[m.Source] = append(idx.bySource[m.Source], m)
	}
	return idx
}

func exactKey(source, date, hhmm, sender string) string {
	return strings.Join([]string{source, date, hhmm, sender}, "\x1f")
}

// canonicalTime turns H:MM, HH:MM or HH:MM:SS into HH:MM or HH:MM:SS; other
// strings are returned unchanged.
func canonicalTime(t string) string {
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, ':'); i == 1 {
		t = "0" + t
	}
	return t
}

func minuteOf(t string) string {
	t = canonicalTime(t)
	if len(t) >= 5 {
		return t[:5]
	}
	return t
}

func (idx *messageIndex) exact(it Item) (*chat.Message, int) {
	t := canonicalTime(it.Time)
	var found []*chat.Message
	for _, m := range idx.byKey[exactKey(it.Source, normalizeDate(it.Date), minuteOf(t), senderOf(it.Sender))] {
		if len(t) == 8 && m.Time != t {
			continue
		}
		if strings.HasPrefix(m.Text, it.TextPrefix) || strings.HasPrefix(m.Text, strings.TrimSpace(it.TextPrefix)) {
			found = append(found, m)
		}
	}
	if len(found) == 0 {
		return nil, 0
	}
	return found[0], len(found)
}

func (idx *messageIndex) excerpt(it Item) (*chat.Message, int) {
	want := Normalize(it.TextPrefix)
	if len([]rune(want)) < MinExcerptRunes {
		return nil, 0
	}
	day, err := time.Parse(chat.DateLayout, normalizeDate(it.Date))
	if err != nil {
		return nil, 0
	}
	at := day.Add(12 * time.Hour)
	if t, err := time.Parse("15:04", minuteOf(it.Time)); err == nil {
		at = day.Add(time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute)
	}
	type candidate struct {
		m      *chat.Message
		inner  bool
		other  bool
		offset time.Duration
	}
	var cands []candidate
	sender := senderOf(it.Sender)
	for _, m := range idx.bySource[it.Source] {
		d, err := time.Parse(chat.DateLayout, m.Date)
		if err != nil || absDuration(d.Sub(day)) > DateTolerance*24*time.Hour {
			continue
		}
		n, ok := idx.norm[m.ID]
		if !ok {
			n = Normalize(m.Text)
			idx.norm[m.ID] = n
		}
		pos := strings.Index(n, want)
		if pos < 0 {
			continue
		}
		cands = append(cands, candidate{m, pos > 0, it.Sender != "" && m.Sender != sender, absDuration(m.OccurredAt.Sub(at))})
	}
	if len(cands) == 0 {
		return nil, 0
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.inner != b.inner {
			return !a.inner
		}
		if a.other != b.other {
			return !a.other
		}
		return a.offset < b.offset
	})
	return cands[0].m, len(cands)
}

func senderOf(s string) string {
	if s == "" {
		return chat.SystemSender
	}
	return s
}

func normalizeDate(d string) string { return strings.ReplaceAll(strings.TrimSpace(d), "/", "-") }

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

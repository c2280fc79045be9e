package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/jsonl"
)

// Self is the exporting user's display name in every source.
const Self = "自分"

// Time quirks of an exported message (spec §2).
const (
	clockNormal  = iota
	clockMissing // no "time" key
	clockEmpty   // "time": ""
	clockBroken  // a string that does not parse, e.g. "25:99"
)

// msg is one generated message before export.
type msg struct {
	sender  string // "" exports as null (system events)
	typ     string
	text    string
	clock   int // clockNormal, …
	at      time.Time
	episode int // index into world.episodes; -1 for none
	qid     int // plantInstance.qid of a planted message; 0 for chatter
	role    string
}

// session is a burst of messages in one source, later placed on the clock.
type session struct {
	start time.Time
	gaps  []time.Duration // gap before each message; gaps[0] is 0
	msgs  []msg
}

func (s *session) end() time.Time {
	t := s.start
	for _, g := range s.gaps {
		t = t.Add(g)
	}
	return t
}

// source is one export file under construction.
type source struct {
	key      string   // short name used by templates: "haruka", "club", …
	name     string   // file name
	kind     string   // partner, friend, family, club, seminar, baito, work, trip
	label    string   // how summaries name the conversation
	title    string   // the chat's name in a .txt export header
	members  []string // everyone but Self, primary partner first
	from, to time.Time
	weight   int // share of the message budget
	quota    int
	sessions []*session
	count    int
	written  []msg // messages in export order, set by exportJSON
}

// episode is what a stretch of messages is about, as a summary would say it.
type episode struct {
	full  string // with names, dates and commitments
	short string // the same with details left out
}

// world is the generator state for one dataset.
type world struct {
	cfg      Config
	target   int
	start    time.Time
	end      time.Time
	sources  []*source
	byKey    map[string]*source
	episodes []episode
	plants   []*plantInstance
}

func newWorld(cfg Config, target int) *world {
	w := &world{cfg: cfg, target: target, byKey: map[string]*source{}}
	w.end = day("2024-09-30")
	w.start = day("2022-04-01")
	if cfg.Scale == ScalePaper {
		w.start = day("2016-04-01")
	}
	for _, spec := range cast {
		s := &source{key: spec.key, title: spec.title, name: spec.name, kind: spec.kind, label: spec.label, members: spec.members, weight: spec.weight, from: w.start, to: w.end}
		if spec.from != "" && day(spec.from).After(w.start) {
			s.from = day(spec.from)
		}
		if spec.to != "" {
			s.to = day(spec.to)
		}
		w.sources = append(w.sources, s)
		w.byKey[s.key] = s
	}
	slices.SortFunc(w.sources, func(a, b *source) int { return strings.Compare(a.name, b.name) })
	// A source's share grows with its active period beyond the small span,
	// so the longer paper history stays as dense per day as the small one.
	smallStart := day("2022-04-01")
	share := make(map[*source]int, len(w.sources))
	total := 0
	for _, s := range w.sources {
		smallFrom := s.from
		if smallFrom.Before(smallStart) {
			smallFrom = smallStart
		}
		share[s] = s.weight * int(s.to.Sub(s.from).Hours()/24+1) / int(s.to.Sub(smallFrom).Hours()/24+1)
		total += share[s]
	}
	left := target
	for i, s := range w.sources {
		s.quota = target * share[s] / total
		if i == len(w.sources)-1 {
			s.quota = left
		}
		left -= s.quota
	}
	return w
}

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic("synth: bad built-in date " + s)
	}
	return t
}

// addEpisode records what a stretch of messages is about and returns its index.
func (w *world) addEpisode(full, short string) int {
	if short == "" {
		short = full
	}
	w.episodes = append(w.episodes, episode{full, short})
	return len(w.episodes) - 1
}

// build plants the questions, fills every source up to its quota with
// everyday chatter, and places all sessions on the clock.
func (w *world) build() error {
	if err := w.plantQuestions(rngFor(w.cfg.Seed, "plants")); err != nil {
		return err
	}
	w.pasteSessions(rngFor(w.cfg.Seed, "pastes"))
	for _, s := range w.sources {
		rng := rngFor(w.cfg.Seed, "filler/"+s.name)
		for s.count < s.quota {
			n := min(sessionSize(rng, w.shortSessions()), s.quota-s.count)
			sess := w.fillerSession(rng, s, n)
			sess.start = randomStart(rng, s.from, s.to)
			s.sessions = append(s.sessions, sess)
			s.count += len(sess.msgs)
		}
		if s.count != s.quota {
			return fmt.Errorf("synth: %s holds %d messages, quota %d", s.name, s.count, s.quota)
		}
		place(rng, s)
	}
	return nil
}

// pastesPer100k is how many sessions, per 100,000 messages, open with a
// pasted text longer than the render limit: their first window keeps only
// that message, and its raw_text stays over the limit (spec §4 step 4).
const pastesPer100k = 15

// pasteSessions adds the sessions that open with an over-long paste.
func (w *world) pasteSessions(rng *rand.Rand) {
	kinds := []struct{ source, kind, speaker, note string }{
		{"work", "minutes", "高橋", "定例の議事録、全文貼っておきます"},
		{"seminar", "minutes", "C", "ゼミ合宿の議事録まとめました"},
		{"trip", "itinerary", "B", "しおり全文です"},
	}
	n := max(3, w.target*pastesPer100k/100000)
	for i := range n {
		k := kinds[i%len(kinds)]
		src := w.byKey[k.source]
		r := pickRoles(rng, src, "")
		ep := w.addEpisode("長い資料（"+longTitles[k.kind]+"）がそのまま貼り付けられ、メンバーが受け取った。", "長い資料が共有された。")
		text := longText(rng, k.kind)
		for utf8.RuneCountInString(text) <= chunking.DefaultMaxChars+200 {
			text += "\n" + longText(rng, k.kind)
		}
		sl := newSlots(rng, withNames(nil, r))
		core := render(rng, src, r, sl, []string{k.speaker + "|" + k.note, "A|ありがとうございます"}, ep)
		paste := msg{sender: r.sender(src, k.speaker), typ: "text", text: text, episode: ep}
		sess := &session{msgs: append([]msg{paste}, core...)}
		sess.start = randomStart(rng, src.from, src.to)
		src.sessions = append(src.sessions, sess)
		src.count += len(sess.msgs)
	}
}

// sessionSize draws how many messages a burst of chat holds: mostly a few
// lines, sometimes a long evening that needs several windows.
// shortSessions raises the share of short sessions: the denser paper-scale
// history merges more bursts into one session (gaps of 180 minutes or less),
// and shorter bursts keep its messages per chunk near the paper's 16.1.
func sessionSize(rng *rand.Rand, shortSessions float64) int {
	switch p := rng.Float64(); {
	case p < 0.47+shortSessions:
		return 2 + rng.IntN(7)
	case p < 0.80:
		return 9 + rng.IntN(17)
	case p < 0.94:
		return 26 + rng.IntN(17)
	default:
		return 43 + rng.IntN(80)
	}
}

func (w *world) shortSessions() float64 {
	if w.cfg.Scale == ScalePaper {
		return 0.18
	}
	return 0
}

// randomStart picks a day in [from, to] and a start time, evenings most likely.
func randomStart(rng *rand.Rand, from, to time.Time) time.Time {
	days := int(to.Sub(from).Hours()/24) + 1
	d := from.AddDate(0, 0, rng.IntN(days))
	var minute int
	switch p := rng.Float64(); {
	case p < 0.15:
		minute = 7*60 + rng.IntN(180)
	case p < 0.45:
		minute = 11*60 + rng.IntN(360)
	default:
		minute = 18*60 + rng.IntN(330)
	}
	return d.Add(time.Duration(minute) * time.Minute)
}

// messageGap draws the pause before a message inside a session.
func messageGap(rng *rand.Rand) time.Duration {
	switch p := rng.Float64(); {
	case p < 0.55:
		return time.Duration(rng.IntN(2)) * time.Minute
	case p < 0.88:
		return time.Duration(1+rng.IntN(4)) * time.Minute
	case p < 0.985:
		return time.Duration(5+rng.IntN(20)) * time.Minute
	default:
		return time.Duration(30+rng.IntN(90)) * time.Minute
	}
}

// place orders a source's sessions in time, pushes overlapping ones later and
// stamps every message with its time.
func place(rng *rand.Rand, s *source) {
	slices.SortStableFunc(s.sessions, func(a, b *session) int { return a.start.Compare(b.start) })
	var prevEnd time.Time
	for i, sess := range s.sessions {
		if len(sess.gaps) != len(sess.msgs) {
			sess.gaps = make([]time.Duration, len(sess.msgs))
			for j := 1; j < len(sess.gaps); j++ {
				sess.gaps[j] = messageGap(rng)
			}
		}
		if i > 0 && !sess.start.After(prevEnd) {
			sess.start = prevEnd.Add(time.Duration(2+rng.IntN(40)) * time.Minute)
		}
		t := sess.start
		for j := range sess.msgs {
			t = t.Add(sess.gaps[j])
			sess.msgs[j].at = t
		}
		prevEnd = t
	}
}

// exportJSON writes the source as a JSON-by-date export: one line per date,
// keys in date order, message objects with time, sender, type and text.
func (s *source) exportJSON() []byte {
	s.written = s.written[:0]
	for _, sess := range s.sessions {
		s.written = append(s.written, sess.msgs...)
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	for i := 0; i < len(s.written); {
		date := s.written[i].at.Format("2006-01-02")
		j := i
		for j < len(s.written) && s.written[j].at.Format("2006-01-02") == date {
			j++
		}
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(jsonString(date))
		b.WriteString(": [")
		for k := i; k < j; k++ {
			if k > i {
				b.WriteString(", ")
			}
			writeMessage(&b, s.written[k])
		}
		b.WriteString("]")
		i = j
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

func writeMessage(b *bytes.Buffer, m msg) {
	b.WriteString("{")
	switch m.clock {
	case clockNormal:
		b.WriteString(`"time": ` + jsonString(m.at.Format("15:04")) + ", ")
	case clockEmpty:
		b.WriteString(`"time": "", `)
	case clockBroken:
		b.WriteString(`"time": "25:99", `)
	}
	if m.sender == "" {
		b.WriteString(`"sender": null, `)
	} else {
		b.WriteString(`"sender": ` + jsonString(m.sender) + ", ")
	}
	b.WriteString(`"type": ` + jsonString(m.typ) + `, "text": ` + jsonString(m.text) + "}")
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	b, err := jsonl.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

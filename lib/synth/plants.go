package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/questions"
)

// plantSpec is a question together with the exchanges that answer it. It is
// instantiated uses times; instance i takes the i-th value of every slot in
// vals and is placed in source where[i % len(where)].
type plantSpec struct {
	typ      string
	where    string // comma-separated source keys of the first part
	uses     int
	from, to string // window for the first part's date; empty means the whole span
	vals     map[string][]string
	q        string // the question, as a person would ask an assistant
	// a is the short reference answer; "" means the planted facts themselves,
	// the filled `full` descriptions of the parts joined in order.
	a      string
	parts  []plantPart
	follow []string // a later exchange in the first source that refers back (supporting evidence)
}

// Placement of the follow-up exchange of a plant.
const (
	followChance  = 0.45 // share of instances that get their follow-up
	followMaxDays = 10   // days after the last part, at most
)

// plantPart is one exchange of a planted episode, in its own session.
type plantPart struct {
	where  string // source key; empty means the first part's source
	after  int    // at least this many days after the previous part
	spread int    // plus up to this many days more
	lines  []string
	full   string
	short  string
}

// plantInstance is one planted question.
type plantInstance struct {
	spec     *plantSpec
	qid      int // 1-based order of planting
	question string
	answer   string // reference answer, from the planted values
}

// plantQuestions instantiates every spec, places its parts in sessions and
// shuffles the question order.
func (w *world) plantQuestions(rng *rand.Rand) error {
	counts := map[string]int{}
	for i := range plantSpecs {
		spec := &plantSpecs[i]
		for n := range spec.uses {
			if err := w.plant(rng, spec, n); err != nil {
				return err
			}
			counts[spec.typ]++
		}
	}
	want := map[string]int{questions.NamedEntity: 34, questions.Contextual: 49, questions.Aggregate: 17}
	for t, n := range want {
		if counts[t] != n {
			return fmt.Errorf("synth: %d %s questions planted, want %d", counts[t], t, n)
		}
	}
	return nil
}

func (w *world) plant(rng *rand.Rand, spec *plantSpec, n int) error {
	keys := strings.Split(spec.where, ",")
	first := w.byKey[keys[n%len(keys)]]
	if first == nil {
		return fmt.Errorf("synth: plant %q: no source %q", spec.q, keys[n%len(keys)])
	}
	fixed := map[string]string{}
	for k, vs := range spec.vals {
		fixed[k] = vs[n%len(vs)]
	}
	if _, ok := fixed["P"]; !ok {
		fixed["P"] = first.members[0]
		if len(first.members) > 1 {
			fixed["P"] = first.members[rng.IntN(len(first.members))]
		}
	}
	sl := newSlots(rng, fixed)
	pi := &plantInstance{spec: spec, qid: len(w.plants) + 1}
	pi.question = sl.fill(spec.q)
	w.plants = append(w.plants, pi)

	span := followMaxDays + 1
	for _, p := range spec.parts[1:] {
		span += p.after + p.spread
	}
	lo, hi := first.from.AddDate(0, 0, 20), first.to.AddDate(0, 0, -span-3)
	if spec.from != "" && day(spec.from).After(lo) {
		lo = day(spec.from)
	}
	if spec.to != "" && day(spec.to).Before(hi) {
		hi = day(spec.to)
	}
	if !hi.After(lo) {
		return fmt.Errorf("synth: plant %q: no room between %s and %s", pi.question, lo.Format("2006-01-02"), hi.Format("2006-01-02"))
	}
	at := lo.AddDate(0, 0, rng.IntN(int(hi.Sub(lo).Hours()/24)))
	var facts []string
	for k, part := range spec.parts {
		src := first
		if part.where != "" {
			src = w.byKey[part.where]
		}
		if k > 0 {
			at = at.AddDate(0, 0, part.after+rng.IntN(part.spread+1))
		}
		r := pickRoles(rng, src, fixed["P"])
		sl.fixed = withNames(sl.fixed, r)
		fact := sl.fill(part.full)
		facts = append(facts, fact)
		ep := w.addEpisode(fact, sl.fill(part.short))
		core := render(rng, src, r, sl, part.lines, ep)
		for i := range core {
			core[i].qid = pi.qid
		}
		sess := w.plantSession(rng, src, core)
		sess.start = at.Add(time.Duration(9*60+rng.IntN(13*60)) * time.Minute)
		src.sessions = append(src.sessions, sess)
		src.count += len(sess.msgs)
	}
	// Every slot of an answer template was drawn by the parts, so filling it
	// draws nothing and the corpus stays what it was without answers.
	pi.answer = strings.Join(facts, "")
	if spec.a != "" {
		pi.answer = sl.fill(spec.a)
	}
	if len(spec.follow) > 0 && rng.Float64() < followChance {
		at = at.AddDate(0, 0, 1+rng.IntN(followMaxDays))
		r := pickRoles(rng, first, fixed["P"])
		ep := w.addEpisode("前に話していた件（"+strings.TrimSuffix(sl.fill(spec.parts[0].short), "。")+"）について、その後の様子を伝え合った。", "")
		core := render(rng, first, r, sl, spec.follow, ep)
		for i := range core {
			core[i].qid = pi.qid
		}
		sess := w.plantSession(rng, first, core)
		sess.start = at.Add(time.Duration(9*60+rng.IntN(13*60)) * time.Minute)
		first.sessions = append(first.sessions, sess)
		first.count += len(sess.msgs)
	}
	return nil
}

// plantSession surrounds a planted exchange with everyday chatter; one in
// four sessions is long, so the exchange may fall into overlapping windows.
func (w *world) plantSession(rng *rand.Rand, src *source, core []msg) *session {
	before, after := rng.IntN(4), rng.IntN(4)
	if rng.IntN(4) == 0 {
		before, after = 4+rng.IntN(5), 2+rng.IntN(6)
	}
	sess := &session{}
	used := map[int]bool{}
	for range before {
		sess.msgs = append(sess.msgs, w.shortFillerExchange(rng, src, used)...)
	}
	sess.msgs = append(sess.msgs, core...)
	for range after {
		sess.msgs = append(sess.msgs, w.shortFillerExchange(rng, src, used)...)
	}
	return sess
}

// questionsAndEvidence lists the planted questions in a shuffled order with
// qids q001…, and the evidence a question writer would note for each: source,
// date, time to the minute, sender and the first words of every answer and
// supporting message. Like a tool-assisted question writer, it sometimes
// quotes from the middle of a message or gets the minute wrong (the resolver's
// excerpt search recovers those), and at most twice adds a supporting quote
// of a message that was never sent (the resolver reports those).
func (w *world) questionsAndEvidence() ([]questions.Question, []gold.Evidence) {
	rng := rngFor(w.cfg.Seed, "evidence")
	items := map[int][]gold.Item{}
	for _, name := range sortedSourceNames(w.sources) {
		src := w.sourceByName(name)
		for _, m := range src.written {
			if m.qid == 0 || m.role == "" {
				continue
			}
			items[m.qid] = append(items[m.qid], w.quote(rng, src, m))
		}
	}
	order := make([]*plantInstance, len(w.plants))
	copy(order, w.plants)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var qs []questions.Question
	var evs []gold.Evidence
	phantoms := 0
	for i, pi := range order {
		qid := fmt.Sprintf("q%03d", i+1)
		its := items[pi.qid]
		slices.SortStableFunc(its, func(a, b gold.Item) int {
			return strings.Compare(a.Date+" "+a.Time, b.Date+" "+b.Time)
		})
		if pi.spec.typ != questions.Aggregate && phantoms < 2 && rng.IntN(20) == 0 && len(its) > 0 {
			ph := its[0]
			ph.TextPrefix, ph.Role = phantomQuotes[phantoms], gold.RoleSupport
			its = append(its, ph)
			phantoms++
		}
		qs = append(qs, questions.Question{QID: qid, Question: pi.question, Type: pi.spec.typ, Answer: pi.answer})
		evs = append(evs, gold.Evidence{QID: qid, Question: pi.question, Type: pi.spec.typ, Items: its})
	}
	return qs, evs
}

// phantomQuotes are excerpts of messages that were never sent.
var phantomQuotes = []string{"その件はまた今度ちゃんと話そう", "じゃあ詳しいことは会ってから決めよう"}

func (w *world) sourceByName(name string) *source {
	for _, s := range w.sources {
		if s.name == name {
			return s
		}
	}
	return nil
}

// quote is how evidence cites m.
func (w *world) quote(rng *rand.Rand, src *source, m msg) gold.Item {
	it := gold.Item{Source: src.name, Date: m.at.Format("2006-01-02"), Time: m.at.Format("15:04"), Sender: m.sender, Role: m.role}
	text := m.text
	if m.sender == "" {
		it.Sender = "SYSTEM"
	}
	n := utf8.RuneCountInString(text)
	rs := []rune(text)
	cut := min(n, 10+rng.IntN(14))
	switch p := rng.Float64(); {
	case p < 0.07 && n >= 12:
		start := 2 + rng.IntN(3)
		it.TextPrefix = string(rs[start:min(n, start+cut)])
	case p < 0.12:
		it.Time = m.at.Add(time.Duration(1+rng.IntN(3)) * time.Minute).Format("15:04")
		it.TextPrefix = string(rs[:cut])
	default:
		it.TextPrefix = string(rs[:cut])
	}
	return it
}

package synth

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// A template line is "SPEAKER|TEXT" with an optional role mark after the
// speaker: "A*|…" answer evidence, "A+|…" supporting evidence. SPEAKER is A
// (the user), B, C or D (other members of the conversation, B first) or a
// member's name. TEXT may hold {slot} references and these forms:
//
//	[photo] [sticker] [video] [file:NAME] [voice] [location]  a media message
//	[call]          a finished call     [missed]  a missed call
//	[sys]TEXT       a system event (null sender)
//	[long:KIND]     a very long pasted text (minutes, itinerary, notes)
//	{url}           an invented URL
type lineSpec struct {
	speaker string
	role    string
	text    string
}

func parseLine(s string) lineSpec {
	head, text, ok := strings.Cut(s, "|")
	if !ok {
		panic("synth: template line without '|': " + s)
	}
	ls := lineSpec{speaker: head, text: text}
	switch {
	case strings.HasSuffix(head, "*"):
		ls.speaker, ls.role = strings.TrimSuffix(head, "*"), "answer"
	case strings.HasSuffix(head, "+"):
		ls.speaker, ls.role = strings.TrimSuffix(head, "+"), "support"
	}
	return ls
}

// cast of one exchange: who B, C and D are.
type roles struct {
	b, c, d string
}

// pickRoles chooses the other speakers of an exchange in src; b is forced
// when it is a member.
func pickRoles(rng *rand.Rand, src *source, b string) roles {
	ms := slices.Clone(src.members)
	rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	if len(src.members) == 1 || src.kind == "partner" {
		ms = slices.Clone(src.members)
	}
	if i := slices.Index(ms, b); i > 0 {
		ms[0], ms[i] = ms[i], ms[0]
	}
	r := roles{b: ms[0], c: ms[0], d: ms[0]}
	if len(ms) > 1 {
		r.c = ms[1]
		r.d = ms[1]
	}
	if len(ms) > 2 {
		r.d = ms[2]
	}
	return r
}

func (r roles) sender(src *source, speaker string) string {
	switch speaker {
	case "A":
		return Self
	case "B":
		return r.b
	case "C":
		return r.c
	case "D":
		return r.d
	}
	if speaker == Self || slices.Contains(src.members, speaker) {
		return speaker
	}
	return r.b
}

// slots fills {name} references: fixed values first, then one draw per name
// from the pools, kept for the whole exchange.
type slots struct {
	rng   *rand.Rand
	fixed map[string]string
	drawn map[string]string
}

func newSlots(rng *rand.Rand, fixed map[string]string) *slots {
	return &slots{rng: rng, fixed: fixed, drawn: map[string]string{}}
}

func (sl *slots) value(name string) string {
	if v, ok := sl.fixed[name]; ok {
		return v
	}
	if v, ok := sl.drawn[name]; ok {
		return v
	}
	var v string
	switch name {
	case "url":
		v = randomURL(sl.rng)
	case "n":
		v = fmt.Sprint(2 + sl.rng.IntN(5))
	case "yen":
		v = fmt.Sprint((5 + sl.rng.IntN(60)) * 100)
	case "dur":
		v = fmt.Sprintf("%d:%02d", sl.rng.IntN(60), sl.rng.IntN(60))
	default:
		pool, ok := pools[name]
		if !ok {
			panic("synth: no pool for slot {" + name + "}")
		}
		v = pool[sl.rng.IntN(len(pool))]
	}
	sl.drawn[name] = v
	return v
}

// fill replaces every {name} in s.
func (sl *slots) fill(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			panic("synth: unclosed slot in " + s)
		}
		b.WriteString(s[:i])
		b.WriteString(sl.value(s[i+1 : i+j]))
		s = s[i+j+1:]
	}
}

func randomURL(rng *rand.Rand) string {
	hosts := []string{"https://example.com/", "https://example.jp/", "https://news.example.net/", "https://shop.example.com/items/", "https://maps.example.org/?q="}
	const alphabet = "abcdefghijkmnopqrstuvwxyz0123456789"
	var b strings.Builder
	b.WriteString(hosts[rng.IntN(len(hosts))])
	for range 6 + rng.IntN(8) {
		b.WriteByte(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// render turns template lines into messages of src for episode ep.
func render(rng *rand.Rand, src *source, r roles, sl *slots, lines []string, ep int) []msg {
	sl.fixed = withNames(sl.fixed, r)
	var out []msg
	for _, raw := range lines {
		ls := parseLine(raw)
		m := msg{sender: r.sender(src, ls.speaker), typ: "text", episode: ep, role: ls.role}
		text := sl.fill(ls.text)
		switch {
		case text == "[photo]", text == "[sticker]", text == "[video]", text == "[voice]", text == "[location]":
			m.typ, m.text = strings.Trim(text, "[]"), ""
		case strings.HasPrefix(text, "[file:"):
			m.typ, m.text = "file", strings.TrimSuffix(strings.TrimPrefix(text, "[file:"), "]")
		case text == "[call]":
			m.typ, m.text = "call", "☎ 通話時間 "+sl.value("dur")
		case text == "[missed]":
			m.typ, m.text = "call", "☎ 不在着信"
		case strings.HasPrefix(text, "[sys]"):
			m.sender, m.typ, m.text = "", "system", strings.TrimPrefix(text, "[sys]")
		case strings.HasPrefix(text, "[long:"):
			m.text = longText(rng, strings.TrimSuffix(strings.TrimPrefix(text, "[long:"), "]"))
		default:
			m.text = text
		}
		out = append(out, m)
	}
	return out
}

func withNames(fixed map[string]string, r roles) map[string]string {
	out := map[string]string{"P": r.b, "Q": r.c, "R": r.d}
	for k, v := range fixed {
		out[k] = v
	}
	return out
}

// noisy sprinkles backchannels, stickers and typos over filler messages, the
// way real chat interleaves them.
func noisy(rng *rand.Rand, src *source, r roles, in []msg) []msg {
	out := make([]msg, 0, len(in)+len(in)/4)
	for _, m := range in {
		if m.typ == "text" && m.role == "" && rng.Float64() < 0.04 {
			m.text = typo(rng, m.text)
		}
		out = append(out, m)
		if rng.Float64() < 0.16 {
			who := Self
			if m.sender == Self {
				who = r.b
				if rng.IntN(3) == 0 {
					who = r.c
				}
			}
			bc := msg{sender: who, typ: "text", episode: m.episode}
			switch p := rng.Float64(); {
			case p < 0.25:
				bc.typ = "sticker"
			case p < 0.30:
				bc.typ = "photo"
			default:
				bc.text = backchannels[rng.IntN(len(backchannels))]
			}
			out = append(out, bc)
		}
	}
	return out
}

// typo damages one message slightly: a doubled or lost character, or a
// stray small kana.
func typo(rng *rand.Rand, s string) string {
	rs := []rune(s)
	if len(rs) < 4 {
		return s
	}
	i := 1 + rng.IntN(len(rs)-2)
	switch rng.IntN(3) {
	case 0:
		return string(rs[:i]) + string(rs[i]) + string(rs[i:])
	case 1:
		return string(rs[:i]) + string(rs[i+1:])
	default:
		return string(rs[:i]) + "っ" + string(rs[i:])
	}
}

var backchannels = []string{
	"うん", "うんうん", "りょ", "りょー", "りょうかい", "了解", "了解です！", "おけ", "おっけー", "OK", "笑", "w", "www", "草",
	"まじか", "まじ？", "それな", "たしかに", "なるほど", "え", "えっ", "ほんと？", "ありがと", "ありがとう🙏", "👍", "😂", "🙏",
	"はーい", "はい", "ね", "ねー", "うける", "やば", "いいね", "いいね！", "わかる", "すご", "おつかれ", "おつ", "ごめん笑", "ほーい",
	"あー", "へー", "そうなんだ", "たぶん", "かも", "だよね", "😇", "🥺", "✨", "🙆‍♀️",
}

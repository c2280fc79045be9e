package synth

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
)

// Summary lengths, in characters, that the paper's prompt asked for.
const (
	summaryMin = 200
	summaryMax = 500
)

// summarize writes the chunk's summary the way the paper's LLM summaries
// read: the conversation and its participants, then what each episode in the
// window is about, in the generator's own paraphrase. Each episode is told in
// full or, about one time in four, with its details left out; filler remarks
// about the tone pad a thin window up to summaryMin characters, and
// episodes stop being added before summaryMax.
func (w *world) summarize(c chat.Chunk, byID map[string]chat.Message, episodeOf map[string]int) string {
	rng := rngFor(w.cfg.Seed, "summary/"+c.ID)
	src := w.sourceByName(c.Source)
	var eps []int
	var people []string
	media, urls, calls := false, false, false
	for _, id := range c.MessageIDs {
		m := byID[id]
		if ep := episodeOf[id]; ep >= 0 && !slices.Contains(eps, ep) {
			eps = append(eps, ep)
		}
		if m.Sender != Self && m.Sender != chat.SystemSender && !slices.Contains(people, m.Sender) {
			people = append(people, m.Sender)
		}
		switch m.Type {
		case "photo", "sticker", "video", "file":
			media = true
		case "call":
			calls = true
		}
		urls = urls || strings.Contains(m.Text, "http")
	}

	var parts []string
	add := func(s string) bool {
		if runes(parts)+utf8.RuneCountInString(s) > summaryMax-20 {
			return false
		}
		parts = append(parts, s)
		return true
	}
	when := spanPhrase(c.StartAt, c.EndAt)
	switch rng.IntN(3) {
	case 0:
		add(fmt.Sprintf("%s、%sでのやり取り。", when, src.label))
	case 1:
		add(fmt.Sprintf("%sでの%sの会話。", src.label, strings.TrimSuffix(when, "に")))
	default:
		add(fmt.Sprintf("%sの一場面。", src.label))
	}
	seen := map[string]bool{}
	for _, ep := range eps {
		e := w.episodes[ep]
		s := e.full
		if rng.IntN(4) == 0 {
			s = e.short
		}
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		if !add(s) {
			break
		}
	}
	pads := []string{}
	if len(people) > 0 {
		pads = append(pads, "主に"+strings.Join(people, "、")+"と自分が話している。")
	}
	if media {
		pads = append(pads, "写真やスタンプでの反応も多い。")
	}
	if urls {
		pads = append(pads, "途中でリンクの共有もある。")
	}
	if calls {
		pads = append(pads, "通話の記録も残っている。")
	}
	general := slices.Clone(generalPads)
	rng.Shuffle(len(general), func(i, j int) { general[i], general[j] = general[j], general[i] })
	pads = append(pads, general...)
	target := min(summaryMax-40, summaryMin+rng.IntN(50)+12*len(eps))
	for _, p := range pads {
		if runes(parts) >= target {
			break
		}
		add(p)
	}
	return strings.Join(parts, "")
}

func runes(parts []string) int {
	n := 0
	for _, p := range parts {
		n += utf8.RuneCountInString(p)
	}
	return n
}

// spanPhrase names the chunk's dates in Japanese: "2023年5月3日に" or
// "2023年5月3日から5月4日にかけて".
func spanPhrase(startAt, endAt string) string {
	a, errA := time.Parse(chat.TimestampLayout, startAt)
	b, errB := time.Parse(chat.TimestampLayout, endAt)
	if errA != nil || errB != nil {
		return "ある日に"
	}
	da := fmt.Sprintf("%d年%d月%d日", a.Year(), a.Month(), a.Day())
	if a.Format("2006-01-02") == b.Format("2006-01-02") {
		return da + "に"
	}
	return fmt.Sprintf("%sから%d月%d日にかけて", da, b.Month(), b.Day())
}

// generalPads describe the tone and shape of a conversation without
// reference to its content, as LLM summaries tend to.
var generalPads = []string{
	"全体として短い相づちや絵文字が多く、気軽な雰囲気で進んでいる。",
	"やり取りはテンポがよく、冗談を交えながら話が進む。",
	"ところどころ省略の多い口語的な書き方で、文脈に頼った短い発言が目立つ。",
	"深刻な話題は少なく、日常の連絡が中心になっている。",
	"お互いを気づかう言葉が多く、関係の近さがうかがえる。",
	"このチャンクの中では、はっきりした結論が出ていない話題もある。",
	"細かな日時や場所は会話の中で一部しか触れられていない。",
	"後の会話につながりそうな話題も含まれている。",
	"特に大きな決定はなく、近況の共有が主な内容である。",
	"発言は短いものが多く、前後の流れを読まないと意味がつかみにくい箇所もある。",
	"話題は途中で何度か切り替わっている。",
	"返信の間隔はまちまちで、少し時間をおいて話が再開する場面もある。",
	"感情的な衝突はなく、穏やかなやり取りである。",
	"くだけた言葉づかいで、親しい間柄らしい軽いやり取りが続く。",
	"自分は聞き役に回ることが多く、相手の話に短く反応している。",
	"用件そのものは短く済み、残りは雑談になっている。",
	"打ち間違いや言い直しも見られ、思いついたまま書き込んでいる様子がうかがえる。",
	"予定や約束に関わる発言が含まれるため、後で日程を確認する手がかりになりうる。",
}

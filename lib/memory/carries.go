package memory

import (
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// carriers are, for each kind of question, the patterns of a message that
// carries what it asks for, matched after NFKC (so ３，０００円 is 3,000円)
// and ASCII lower-casing:
//
//   - when: a clock time (19:30, 7pm, 19時, 7時半, 10じ), a date (12/7,
//     3月5日, 5日, 2024-05-11), a weekday or a relative day in kanji or kana
//     (明日, 来週, らいしゅう, 土曜, すいようび, tomorrow, saturday), a month name;
//   - how much: an amount with a unit or currency, in kanji or kana (9,500円,
//     1800えん, 3万, ¥500, $20, 6000 yen, 3人, 2個, 千円), or a length of
//     time (2時間, 90分);
//   - where: a place word (駅, 店, 公園, ホテル, スーパー, 会場, 改札,
//     station, park, hotel, …), a place in a home or office (室, 玄関, 部屋,
//     棚, 引き出し, ポスト, ロッカー), a position (の上, の中, の横, の前, …)
//     or an address-like "…前で", "…近く";
//   - who: a person's honorific (さん, くん, ちゃん, 先生, 先輩) or a name of one
//     of the chat's senders, given by the caller.
//
// "what" and yes/no questions have no carrier: any line can answer them.
// Two questions ask for less than their kind (Question.Pattern): one for a
// time of day (Question.Clock) for a clock time alone (clockCarrier), one
// for a sum of money (Question.Money) for an amount of money alone
// (moneyCarrier).
var carriers = map[Asks]*regexp.Regexp{
	AsksWhen: regexp.MustCompile(`\d{1,2}:\d{2}|\d{1,2}\s?(am|pm)\b|\d{1,2}時|\d{1,2}/\d{1,2}|\d{1,2}月|\d{1,2}日|\d{4}-\d{2}-\d{2}|` +
		`[月火水木金土日]曜|(げつ|か|すい|もく|きん|ど|にち)ようび|明日|あした|今日|きょう|昨日|きのう|来週|らいしゅう|先週|せんしゅう|今週|来月|らいげつ|先月|週末|\d{1,2}じ|` +
		`\b(today|tomorrow|yesterday|tonight|weekend|next week|last week|monday|tuesday|wednesday|thursday|friday|saturday|sunday|` +
		`january|february|march|april|june|july|august|september|october|november|december|morning|noon|evening)\b`),
	AsksHowMuch: regexp.MustCompile(`\d[\d,]*\s?(円|えん|万|まん|千|ドル|どる|人|にん|個|こ|枚|まい|本|回|かい|杯|泊|時間|じかん|分|ふん|ぷん|yen|dollars?|usd|people|persons?|k\b)|[¥$€£]\s?\d|[一二三四五六七八九十百千]+(円|万|人)|千円|万円`),
	AsksWhere: regexp.MustCompile(`駅|えき|店|屋|公園|ホテル|旅館|空港|病院|館|センター|パーク|モール|ビル|カフェ|レストラン|スーパー|会場|学校|大学|改札|神社|寺|城|港|前で|の近く|` +
		`室|玄関|部屋|棚|引き出し|ポスト|ロッカー|の(上|中|下|横|奥|裏|隣|前)|` +
		`\b(station|park|hotel|restaurant|cafe|café|shop|store|mall|airport|street|avenue|building|center|centre|place|near|downtown|beach|museum)\b`),
	AsksWho: regexp.MustCompile(`さん|くん|君|ちゃん|先生|先輩|様|\b(mr|mrs|ms|dr)\b`),
}

// clockCarrier is the part of the when-pattern that writes a time of day
// (19:30, 7pm, 19時, 10じ; not 12/12 or 土曜).
var clockCarrier = regexp.MustCompile(`\d{1,2}:\d{2}|\d{1,2}\s?(am|pm)\b|\d{1,2}時|\d{1,2}じ`)

// moneyCarrier is the part of the how-much pattern that writes a sum of
// money (9,500円, 1800えん, 3万, ¥500, $20, 6000 yen, 千円; not 3人, 2個 or
// 2時間).
var moneyCarrier = regexp.MustCompile(`\d[\d,]*\s?(円|えん|万|まん|千|ドル|どる|yen|dollars?|usd|k\b)|[¥$€£]\s?\d|[一二三四五六七八九十百千]+(円|万)|千円|万円`)

// Pattern is the carrier pattern of what q asks for: clockCarrier for a
// question for a time of day, moneyCarrier for one for a sum of money,
// else its kind's (carriers); nil for a kind without one.
func (q Question) Pattern() *regexp.Regexp {
	switch {
	case q.Asks == AsksWhen && q.Clock:
		return clockCarrier
	case q.Asks == AsksHowMuch && q.Money:
		return moneyCarrier
	}
	return carriers[q.Asks]
}

// Carries reports whether text carries what a question asking asks asks
// for (see carriers); for AsksWho also when it names one of names (the
// chat's senders, compared as whole words, any letter case). Always false
// for what, yes/no and other questions.
func Carries(asks Asks, text string, names []string) bool {
	return carries(carriers[asks], asks, text, names, nil)
}

// CarriedBy reports whether text carries what q asks for (Carries with
// q.Pattern: a clock time for a question for a time of day, an amount of
// money for one for a sum of money) beyond what q itself states: for a
// when or how-much question, a date, time or amount that q's own text
// holds (the same match of the same pattern, after NFKC and lower-casing;
// read once, by ParseQuestion) does not count. In 「歯医者 2日から何日にずらした」 the line 「はいしゃ、2日むりに
// なった」 repeats the question's 2日 and carries nothing; 「4日(金)の19時に
// へんこうした」 carries 4日 and 19時. A place word or a name the question
// holds still counts: it says what kind of thing a line names, not which
// one.
func (q Question) CarriedBy(text string, names []string) bool {
	return carries(q.Pattern(), q.Asks, text, names, q.stated)
}

// carries is Carries with pattern re (nil: none) and re's matches in
// stated not counted.
func carries(re *regexp.Regexp, asks Asks, text string, names []string, stated map[string]bool) bool {
	if re == nil {
		return false
	}
	s := strings.ToLower(norm.NFKC.String(text))
	for _, m := range re.FindAllString(s, -1) {
		if !stated[m] {
			return true
		}
	}
	if asks == AsksWho {
		words := map[string]bool{}
		for _, w := range enWord.FindAllString(s, -1) {
			words[w] = true
		}
		for _, n := range names {
			for _, w := range strings.Fields(strings.ToLower(norm.NFKC.String(n))) {
				switch {
				case w == "自分" || len([]rune(w)) < 2:
				case enWord.MatchString(w) && words[w]:
					return true
				case !enWord.MatchString(w) && strings.Contains(s, w):
					return true
				}
			}
		}
	}
	return false
}

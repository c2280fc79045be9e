package everyday

import (
	"strconv"
	"strings"
)

// counters are the characters after which a run of kanji numerals is a
// number (三千円, 一等, 二人, 三時半, 十二月五日): currency, counters of people,
// things and times, and calendar units. 分 is not one (十分 is "enough").
const counters = "円等人名個回枚本杯泊位階歳才件台匹冊着点度番倍割時日月年週万"

// kanjiDigit is the value of a kanji digit, −1 for another character.
func kanjiDigit(r rune) int {
	switch r {
	case '〇', '零':
		return 0
	case '一':
		return 1
	case '二':
		return 2
	case '三':
		return 3
	case '四':
		return 4
	case '五':
		return 5
	case '六':
		return 6
	case '七':
		return 7
	case '八':
		return 8
	case '九':
		return 9
	}
	return -1
}

// kanjiUnit is the value of 十, 百 or 千, 0 for another character.
func kanjiUnit(r rune) int {
	switch r {
	case '十':
		return 10
	case '百':
		return 100
	case '千':
		return 1000
	}
	return 0
}

// kanjiNumerals rewrites each run of kanji numerals that a counter follows
// as decimal digits, so that 三千円 = 3000円 = 3,000円 and 一等 = 1等 reach the
// number, time and date forms of timeOrNumber (三時半 → 03:30, 十二月五日 →
// 12/5). The run's value is positional when it holds 十, 百 or 千 (三千五百 =
// 3500, 十二 = 12, 千 = 1000) and the digits as written otherwise (二〇二四 =
// 2024); 万 is a counter of its own (三万円 = 3万円). A run right after a kanji
// other than a counter (統一, 第一) or after a digit is left as it is, and so
// is a run that no counter follows (一緒, 一応, 十分); after a counter it is
// read (十二月五日: 五 after 月). Every digit carries the bytes of the
// whole run, so a mark covers the numerals as written.
func kanjiNumerals(chars []char) []char {
	var out []char
	for i := 0; i < len(chars); {
		j := i
		for j < len(chars) && (kanjiDigit(chars[j].r) >= 0 || kanjiUnit(chars[j].r) > 0) {
			j++
		}
		if j == i {
			out = append(out, chars[i])
			i++
			continue
		}
		after := j < len(chars) && strings.ContainsRune(counters, chars[j].r)
		prev := rune(0)
		if i > 0 {
			prev = chars[i-1].r
		}
		before := isHan(prev) && !strings.ContainsRune(counters, prev) || i > 0 && chars[i-1].class == digit
		if !after || before {
			out = append(out, chars[i:j]...)
			i = j
			continue
		}
		start, end := chars[i].start, chars[j-1].end
		for _, r := range kanjiValue(chars[i:j]) {
			out = append(out, char{r: r, start: start, end: end, class: digit})
		}
		i = j
	}
	return out
}

// kanjiValue is the decimal digits of a run of kanji numerals.
func kanjiValue(run []char) string {
	positional := false
	for _, c := range run {
		positional = positional || kanjiUnit(c.r) > 0
	}
	if !positional {
		b := make([]rune, len(run))
		for i, c := range run {
			b[i] = rune('0' + kanjiDigit(c.r))
		}
		return string(b)
	}
	total, digit := 0, -1
	for _, c := range run {
		if u := kanjiUnit(c.r); u > 0 {
			total += max(digit, 1) * u
			digit = -1
			continue
		}
		digit = kanjiDigit(c.r)
	}
	total += max(digit, 0)
	return strconv.Itoa(total)
}

package everyday

import (
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/tokenize/token"
)

// timeOrNumber reads a time, a date or a number with digit-group commas at
// chars[i] and returns its tokens and how many characters it used; n is 0
// when none starts there. The forms (after NFKC and case folding):
//
//	time  [午前|午後] H時 [半 | M分]      → HH:MM   (午後 adds 12 to H < 12; not H時間, a duration)
//	      H:MM [am|pm]                  → HH:MM   (pm adds 12 to H < 12; 12am → 00)
//	      H am|pm                       → HH:00
//	date  M/D, M月D日                    → M/D     (1 ≤ M ≤ 12, 1 ≤ D ≤ 31)
//	      YYYY/M/D, YYYY年M月D日          → YYYY and M/D
//	number D{1,3}(,DDD)+                → the digits joined (3,000 → 3000)
//
// with H ≤ 24 and MM < 60; a space may stand before am/pm. A form must not
// run on into another digit. Anything else is left to the run tokenizer
// (a digit run is a number as written), and so is a form that continues
// one after "/", ":", "," or "." (the 4/5 of 3/4/5 is no date).
func timeOrNumber(chars []char, i int) (out []token.Token, n int) {
	at := func(j int) rune {
		if j < len(chars) {
			return chars[j].r
		}
		return 0
	}
	isDigit := func(j int) bool { r := at(j); return '0' <= r && r <= '9' }
	digits := func(j int) (value, end int) {
		end = j
		for isDigit(end) && end-j < 5 {
			value = value*10 + int(at(end)-'0')
			end++
		}
		return value, end
	}
	tok := func(from, to int, term string) token.Token {
		return token.Token{Term: term, Start: chars[from].start, End: chars[to-1].end}
	}
	// ampmAt reads " am", "am", " pm" or "pm" not followed by a letter.
	ampmAt := func(j int) (pm bool, end int, ok bool) {
		k := j
		if at(k) == ' ' {
			k++
		}
		if (at(k) == 'a' || at(k) == 'p') && at(k+1) == 'm' && (k+2 >= len(chars) || chars[k+2].class != letter) {
			return at(k) == 'p', k + 2, true
		}
		return false, j, false
	}
	clock := func(h, m int) string { return fmt.Sprintf("%02d:%02d", h, m) }

	if i >= 2 && strings.ContainsRune("/:,.", chars[i-1].r) && chars[i-2].class == digit {
		return nil, 0 // the tail of a longer form (3/4/5, 1,2,3)
	}
	start := i
	shift := 0 // 12 after 午後
	if at(i) == '午' && (at(i+1) == '前' || at(i+1) == '後') && isDigit(i+2) {
		if at(i+1) == '後' {
			shift = 12
		}
		i += 2
	}
	if !isDigit(i) || i > 0 && start == i && isDigit(i-1) {
		return nil, 0
	}
	v, j := digits(i)
	nd := j - i
	if isDigit(j) {
		return nil, 0
	}
	switch {
	case at(j) == '時' && at(j+1) != '間' && nd <= 2 && v <= 24:
		m, end := 0, j+1
		if at(end) == '半' {
			m, end = 30, end+1
		} else if mm, e := digits(end); e > end && e-end <= 2 && at(e) == '分' && mm < 60 {
			m, end = mm, e+1
		}
		if shift > 0 && v < 12 {
			v += shift
		}
		return []token.Token{tok(start, end, clock(v, m))}, end - start
	case shift > 0:
		return nil, 0
	case at(j) == ':' && nd <= 2 && v <= 24:
		mm, e := digits(j + 1)
		if e-(j+1) != 2 || mm >= 60 || isDigit(e) {
			return nil, 0
		}
		end := e
		if pm, pe, ok := ampmAt(e); ok && v >= 1 && v <= 12 {
			v, end = hour12(v, pm), pe
		}
		return []token.Token{tok(start, end, clock(v, mm))}, end - start
	case nd <= 2 && v >= 1 && v <= 12:
		if pm, pe, ok := ampmAt(j); ok {
			return []token.Token{tok(start, pe, clock(hour12(v, pm), 0))}, pe - start
		}
	}
	if (at(j) == '/' || at(j) == '月') && nd <= 2 {
		if d, end, ok := monthDay(chars, j, v, digits); ok {
			return []token.Token{tok(start, end, fmt.Sprintf("%d/%d", v, d))}, end - start
		}
	}
	if (at(j) == '/' || at(j) == '年') && nd == 4 && isDigit(j+1) {
		m, k := digits(j + 1)
		if k-(j+1) <= 2 && (at(j) == '/' && at(k) == '/' || at(j) == '年' && at(k) == '月') {
			if d, end, ok := monthDay(chars, k, m, digits); ok {
				year := tok(start, j, fmt.Sprint(v))
				return []token.Token{year, tok(start, end, fmt.Sprintf("%d/%d", m, d))}, end - start
			}
		}
	}
	if nd <= 3 && at(j) == ',' {
		joined := runText(chars[i:j])
		end := j
		for at(end) == ',' && isDigit(end+1) {
			_, e := digits(end + 1)
			if e-(end+1) != 3 {
				break
			}
			joined += runText(chars[end+1 : e])
			end = e
		}
		if end > j {
			return []token.Token{tok(start, end, joined)}, end - start
		}
	}
	return nil, 0
}

// monthDay reads "/D" or "月D日" at chars[j] after month m: the day and the
// end, when 1 ≤ m ≤ 12 and 1 ≤ D ≤ 31 and no digit or further "/" follows.
func monthDay(chars []char, j, m int, digits func(int) (int, int)) (day, end int, ok bool) {
	if m < 1 || m > 12 || j+1 >= len(chars) {
		return 0, 0, false
	}
	sep := chars[j].r
	d, e := digits(j + 1)
	if e == j+1 || e-(j+1) > 2 || d < 1 || d > 31 {
		return 0, 0, false
	}
	switch sep {
	case '/':
		if e < len(chars) && (chars[e].r == '/' || chars[e].class == digit) {
			return 0, 0, false
		}
		return d, e, true
	case '月':
		if e < len(chars) && chars[e].r == '日' {
			return d, e + 1, true
		}
	}
	return 0, 0, false
}

// hour12 turns an hour 1–12 with am or pm into 0–23.
func hour12(h int, pm bool) int {
	switch {
	case pm && h < 12:
		return h + 12
	case !pm && h == 12:
		return 0
	}
	return h
}

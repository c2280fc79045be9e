package lineexport

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/chat"
)

// ReadText reads the `.txt` chat history that the LINE app writes (spec §3).
// source is the file's base name; it becomes Message.Source and names the
// file in errors and warnings.
//
// Layout (⇥ is a tab):
//
//	[LINE] 花子とのトーク履歴        header (also Xのトーク履歴, Chat history with/in X)
//	保存日時：2024/01/20 21:03       or "Saved on: …"; optional
//	                               a blank line
//	2024/01/14(日)                 a day line
//	9:05⇥花子⇥おはよう               TIME⇥SENDER⇥TEXT
//	22:10⇥花子が…を取り消しました      TIME⇥TEXT: a system line
//
// Header: the first line (after one optional byte-order mark) must start with
// "[LINE] "; the Japanese and English forms above are the ones the app
// writes, and other locales' headers are accepted alike. A following
// "保存日時：" / "保存日時:" / "Saved on:" line is skipped.
//
// Day lines: YYYY/M/D, YYYY.M.D or YYYY-M-D (one or two digits for month and
// day) followed by nothing, a weekday in parentheses or a weekday after a
// space (2024/01/14(日), 2015/12/25 Fri, 2017.09.02 Saturday,
// 2025.12.30 火曜日); or a weekday, a comma and A/B/YYYY (Sun, 01/14/2024).
// The weekday text is ignored. For A/B/YYYY lines the file decides the order:
// a line with A > 12 makes every such line day-first, one with B > 12
// month-first (both in one file is an error); when no line decides, the file
// is read month-first and one Warning marks the first line where A ≠ B.
//
// Message lines: TIME, a tab, SENDER, a tab, TEXT; only the first two tabs are
// structure. TIME is H:MM or HH:MM (24-hour), 午前H:MM / 午後H:MM, H:MMAM or
// H:MM PM (any letter case, "a.m." too), each with optional seconds
// (9:05:30, 9:05:30 PM); in 12-hour forms 12 AM is 00 and 12 PM is 12. Time
// is then "HH:MM:SS", seconds 00 when the column has none. An empty SENDER column, or a line with
// only TIME<TAB>TEXT, is a system line: sender "SYSTEM".
//
// Multi-line messages are wrapped in double quotes, "first line … last line";
// the quotes are removed, the inner text is kept verbatim (inner quotes are
// not unescaped). Which newlines are inside a message depends on the file:
//   - CRLF files (the first line ends in CRLF): records end at CRLF; inside
//     a quoted message a bare LF is a newline of the message (up to a line
//     ending in `"` that a message line follows); outside quotes a bare LF
//     is a line break, as in an LF file, with one Warning naming the first
//     such line followed by a message or day line (see crlfRecords); the
//     wrapping quotes are removed when the text spans lines.
//   - LF files: a message whose TEXT starts with `"` continues over the
//     following lines up to the first line ending in `"` after which the next
//     non-blank line is a message line or a day line or the file ends; the
//     search stops, and the opening line stands alone with its quote kept, at
//     any message line or at a day line after a blank line. A line that opens
//     and closes a quote and is followed by such a boundary is an ordinary
//     one-line text and keeps its quotes.
//
// Outside quotes, a line that is neither blank, a message line nor a day
// line continues the previous message's text after a newline, unless it
// follows a blank line or no message has been read since the last day line:
// there a day line belongs, and anything else (a day-shaped line naming no
// real date included) is an InputError. Elsewhere a day-shaped line naming
// no real date is a continuation line, with a Warning naming it (a typo
// in a day line would otherwise move a day's messages unnoticed).
//
// Text that is exactly a placeholder sets Type and keeps the placeholder as
// Text (see TypeOf). Errors (*InputError): invalid UTF-8, no header, a day
// line that is not a date, a message line before any day line, a time out of
// range.
func ReadText(source string, r io.Reader) (*Result, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return parseText(source, data)
}

// parseText is ReadText on the file's bytes.
func parseText(source string, data []byte) (*Result, error) {
	data, converted, err := toUTF8(source, data)
	if err != nil {
		return nil, err
	}
	data, crOnly := crToLF(source, data)
	tr := &textReader{source: source, lines: splitLines(data)}
	res, err := tr.read()
	if err != nil {
		return nil, err
	}
	var notes []Warning
	for _, w := range []*Warning{converted, crOnly} {
		if w != nil {
			notes = append(notes, *w)
		}
	}
	if len(res.Messages) == 0 {
		notes = append(notes, Warning{File: source, Line: len(tr.lines), Message: "no messages: the file holds a header but no day line with messages under it"})
	}
	res.Warnings = append(notes, res.Warnings...)
	return res, nil
}

// physicalLine is one line of the file without its terminator.
type physicalLine struct {
	text string
	num  int   // 1-based
	off  int64 // byte offset of its first byte
	crlf bool  // ended by CRLF (false: LF or end of file)
	last bool  // no terminator: the file ends here
}

// splitLines cuts data into lines at LF, noting CRLF terminators. One leading
// byte-order mark is dropped from the first line (its offset still counts).
func splitLines(data []byte) []physicalLine {
	var lines []physicalLine
	off := 0
	if bytes.HasPrefix(data, utf8BOM) {
		off = len(utf8BOM)
	}
	for num := 1; off < len(data) || num == 1; num++ {
		end := bytes.IndexByte(data[off:], '\n')
		l := physicalLine{num: num, off: int64(off)}
		if end < 0 {
			l.text, l.last = string(data[off:]), true
			lines = append(lines, l)
			break
		}
		text := data[off : off+end]
		if len(text) > 0 && text[len(text)-1] == '\r' {
			text, l.crlf = text[:len(text)-1], true
		}
		l.text = string(text)
		lines = append(lines, l)
		off += end + 1
	}
	return lines
}

// record is one logical line: a physical line, or several joined by "\n"
// when they belong to one multi-line message.
type record struct {
	text string
	line physicalLine // the first physical line
}

// textReader holds the state of one ReadText call.
type textReader struct {
	source string
	lines  []physicalLine
	days   []textDay
	msgs   []pendingMessage
	result Result
}

// textDay is one day line as read; A/B/YYYY lines are resolved at the end.
type textDay struct {
	line       physicalLine
	y, a, b    int  // for ymd: a = month, b = day
	ambiguous  bool // A/B/YYYY form
	date       string
	day        time.Time
	rawDayLine string
}

// pendingMessage is a message waiting for its day to be resolved.
type pendingMessage struct {
	day          int // index into days
	hour, minute int
	second       int
	sender, text string
	more         []string // unquoted continuation lines, joined to text by "\n"
}

var (
	// dayYMD matches 2024/01/14(日), 2024/1/5(水), 2015/12/25 Fri,
	// 2017.09.02 Saturday, 2025.12.30 火曜日 and a bare 2024/01/14.
	dayYMD = regexp.MustCompile(`^(\d{4})([/.\-])(\d{1,2})([/.\-])(\d{1,2})(?:\s*\([^()\d\t]*\)|\s+[^\s\d\t]+)?\s*$`)
	// dayWeekdayAB matches Sun, 01/14/2024 and Sun, 14/01/2024.
	dayWeekdayAB = regexp.MustCompile(`^[^\s\d\t,]+,\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$`)
	// messageTime matches the TIME column: 9:05, 09:05, 午前9:05, 午後9:05,
	// 9:05AM, 9:05 PM, 9:05 p.m., each also with seconds (9:05:30 PM).
	messageTime = regexp.MustCompile(`^(午前|午後)?(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp])\.?[Mm]\.?)?$`)
)

// Placeholders whose whole text sets a message's type (spec §3).
var placeholderTypes = map[string]string{
	"[スタンプ]": "sticker", "[Sticker]": "sticker",
	"[写真]": "photo", "[画像]": "photo", "[Photo]": "photo",
	"[動画]": "video", "[Video]": "video",
	"[ファイル]": "file", "[File]": "file",
	"[ボイスメッセージ]": "voice", "[音声メッセージ]": "voice", "[Voice message]": "voice",
	"[位置情報]": "location", "[Location]": "location",
	"[連絡先]": "contact", "[Contact]": "contact",
	"[アルバム]": "note", "[ノート]": "note", "[Notes]": "note",
}

// Call records start with one of these; unsend notices end with one of these.
var (
	callPrefixes  = []string{"☎", "Call time", "Missed call", "Canceled the call"}
	unsendSuffixs = []string{"メッセージの送信を取り消しました", "unsent a message"}
)

// TypeOf returns the message type that a LINE text export's TEXT column
// implies (spec §3): exactly a bracketed placeholder ([スタンプ]/[Sticker] →
// sticker, [写真]/[画像]/[Photo] → photo, [動画]/[Video] → video,
// [ファイル]/[File] → file, [ボイスメッセージ]/[音声メッセージ]/[Voice message] →
// voice, [位置情報]/[Location] → location, [連絡先]/[Contact] → contact,
// [アルバム]/[ノート]/[Notes] → note); a text starting with ☎, "Call time",
// "Missed call" or "Canceled the call" → call; a text ending with
// "メッセージの送信を取り消しました" or "unsent a message", before any trailing
// spaces, periods or exclamation marks (。 ． . ! ！), → unsend; anything
// else → "text".
func TypeOf(text string) string {
	if t, ok := placeholderTypes[text]; ok {
		return t
	}
	for _, p := range callPrefixes {
		if strings.HasPrefix(text, p) {
			return "call"
		}
	}
	notice := strings.TrimRight(text, " 　.。．!！")
	for _, s := range unsendSuffixs {
		if strings.HasSuffix(notice, s) {
			return "unsend"
		}
	}
	return chat.TextType
}

func (tr *textReader) read() (*Result, error) {
	first := tr.lines[0]
	if !strings.HasPrefix(first.text, "[LINE] ") || strings.TrimSpace(first.text[len("[LINE] "):]) == "" {
		got := fmt.Sprintf("got %q", clip(first.text))
		if first.last && first.text == "" {
			got = "got an empty file"
		}
		return nil, tr.errorAt(first, "a header line `[LINE] ` and the chat's name, as LINE writes it (`[LINE] Xとのトーク履歴`, `[LINE] Chat history in X`, `[LINE] Chat history with X`), "+got)
	}
	tr.result.Title = ChatTitle(first.text)
	body := tr.lines[1:]
	if len(body) > 0 && isSavedLine(body[0].text) {
		body = body[1:]
	}
	crlf := first.crlf && hasBareLF(body)
	var records []record
	if crlf {
		var first physicalLine
		var n int
		records, first, n = crlfRecords(body)
		if n > 0 {
			tr.result.Warnings = append(tr.result.Warnings, Warning{File: tr.source, Line: first.num,
				Message: fmt.Sprintf("a bare LF outside quotes in a file of CRLF lines before a message or day line (%d such line(s)); read as a line break", n)})
		}
	} else {
		records = lfRecords(body)
	}
	if err := tr.readRecords(records); err != nil {
		return nil, err
	}
	if err := tr.resolveDays(); err != nil {
		return nil, err
	}
	tr.result.Messages = make([]chat.Message, len(tr.msgs))
	for i, p := range tr.msgs {
		d := tr.days[p.day]
		if len(p.more) > 0 {
			p.text = strings.Join(append([]string{p.text}, p.more...), "\n")
		}
		m := chat.Message{
			Source:      tr.source,
			SourceOrder: i,
			Date:        d.date,
			Time:        formatClock(p.hour, p.minute, p.second),
			Sender:      p.sender,
			Type:        TypeOf(p.text),
			Text:        p.text,
		}
		finish(&m, d.day, clockDuration(p.hour, p.minute, p.second), true)
		tr.result.Messages[i] = m
	}
	return &tr.result, nil
}

// hasBareLF reports whether a line other than the last ends in a bare LF:
// only then do CRLF record ends tell inner newlines from message ends. A file
// whose every line ends in CRLF reads like its LF copy.
func hasBareLF(lines []physicalLine) bool {
	for _, l := range lines {
		if !l.crlf && !l.last {
			return true
		}
	}
	return false
}

func isSavedLine(s string) bool {
	return strings.HasPrefix(s, "保存日時：") || strings.HasPrefix(s, "保存日時:") || strings.HasPrefix(s, "Saved on:")
}

// crlfRecords cuts the lines of a CRLF file into records. Inside a quoted
// message (a message line whose TEXT opens with `"`) a bare LF is a newline
// of the message, as LINE writes multi-line messages, up to the CRLF that
// ends the record, or up to a line ending in `"` followed by a message line.
// Outside quotes a bare LF ends the record like CRLF: LINE writes no bare LF
// there, so one comes from an edit or a joined file, and reading it as the
// line break it is keeps the next message its own (a message line, a day
// line, or else a continuation line, as in an LF file). bareLF is the first
// line whose bare LF is followed by a message or day line (which a reading
// of every bare LF as an inner newline would have merged into the message),
// and n how many there are.
func crlfRecords(lines []physicalLine) (records []record, bareLF physicalLine, n int) {
	for i := 0; i < len(lines); i++ {
		rec := record{text: lines[i].text, line: lines[i]}
		innerLF := func(j int) bool { return !lines[j].crlf && !lines[j].last && j+1 < len(lines) }
		if _, _, text, ok := splitMessage(lines[i].text); ok && strings.HasPrefix(text, `"`) {
			closed := func(j int) bool {
				t := lines[j].text
				if j == i {
					t = text
				}
				return len(t) >= 2 && strings.HasSuffix(t, `"`) && isMessageLine(lines[j+1].text)
			}
			j := i
			for innerLF(j) && !closed(j) {
				j++
			}
			if j > i {
				var parts []string
				for k := i; k <= j; k++ {
					parts = append(parts, lines[k].text)
				}
				rec.text, i = strings.Join(parts, "\n"), j
			}
		}
		if innerLF(i) && (isMessageLine(lines[i+1].text) || isDayShape(lines[i+1].text)) {
			if n == 0 {
				bareLF = lines[i]
			}
			n++
		}
		records = append(records, rec)
	}
	return records, bareLF, n
}

// lfRecords joins the lines of quoted multi-line messages (see ReadText).
func lfRecords(lines []physicalLine) []record {
	var records []record
	for i := 0; i < len(lines); i++ {
		rec := record{text: lines[i].text, line: lines[i]}
		if _, _, text, ok := splitMessage(lines[i].text); ok && strings.HasPrefix(text, `"`) {
			if !(len(text) >= 2 && strings.HasSuffix(text, `"`) && boundaryAfter(lines, i)) {
				if j := quoteEnd(lines, i); j > i {
					var parts []string
					for k := i; k <= j; k++ {
						parts = append(parts, lines[k].text)
					}
					rec.text = strings.Join(parts, "\n")
					i = j
				}
			}
		}
		records = append(records, rec)
	}
	return records
}

// quoteEnd returns the line that closes the quote opened on line i, or -1.
func quoteEnd(lines []physicalLine, i int) int {
	for j := i + 1; j < len(lines); j++ {
		t := lines[j].text
		if isMessageLine(t) || (isDayShape(t) && lines[j-1].text == "") {
			return -1
		}
		if strings.HasSuffix(t, `"`) && boundaryAfter(lines, j) {
			return j
		}
	}
	return -1
}

// boundaryAfter reports whether the next non-blank line after j is a message
// or day line, or there is none.
func boundaryAfter(lines []physicalLine, j int) bool {
	for k := j + 1; k < len(lines); k++ {
		t := lines[k].text
		if strings.TrimSpace(t) == "" {
			continue
		}
		return isMessageLine(t) || isDayShape(t)
	}
	return true
}

// splitMessage splits TIME<TAB>SENDER<TAB>TEXT (or TIME<TAB>TEXT) when the
// first column has the shape of a time.
func splitMessage(s string) (clock, sender, text string, ok bool) {
	clock, rest, found := strings.Cut(s, "\t")
	if !found || !messageTime.MatchString(clock) {
		return "", "", "", false
	}
	sender, text, found = strings.Cut(rest, "\t")
	if !found {
		return clock, "", sender, true
	}
	return clock, sender, text, true
}

func isMessageLine(s string) bool {
	_, _, _, ok := splitMessage(s)
	return ok
}

func isDayShape(s string) bool { return dayYMD.MatchString(s) || dayWeekdayAB.MatchString(s) }

// parseMessageTime converts a TIME column to a 24-hour clock; absent
// seconds are 0.
func parseMessageTime(clock string) (h, m, sec int, ok bool) {
	g := messageTime.FindStringSubmatch(clock)
	if g == nil {
		return 0, 0, 0, false
	}
	h, _ = digits(g[2])
	m, _ = digits(g[3])
	if g[4] != "" {
		sec, _ = digits(g[4])
	}
	if m > 59 || sec > 59 {
		return 0, 0, 0, false
	}
	pm := g[1] == "午後" || g[5] == "P" || g[5] == "p"
	if g[1] == "" && g[5] == "" {
		return h, m, sec, h <= 23
	}
	if h > 12 {
		return 0, 0, 0, false
	}
	h %= 12 // 12 AM → 0, 12 PM → 12 below
	if pm {
		h += 12
	}
	return h, m, sec, true
}

// readRecords classifies records into day lines and messages.
func (tr *textReader) readRecords(records []record) error {
	afterBlank := true       // the header block ends with a blank line
	messageSinceDay := false // a message follows the current day line
	for _, rec := range records {
		switch {
		case strings.TrimSpace(rec.text) == "":
			afterBlank = true
			continue
		case isMessageLine(rec.text):
			if len(tr.days) == 0 {
				return tr.errorAt(rec.line, fmt.Sprintf("a day line such as 2024/01/14(日) before the first message, got message line %q", clip(rec.text)))
			}
			clock, sender, text, _ := splitMessage(rec.text)
			h, m, sec, ok := parseMessageTime(clock)
			if !ok {
				return tr.errorAt(rec.line, fmt.Sprintf("a time from 0:00 to 23:59, seconds optional (0:00:00 to 23:59:59), or 12-hour from 1:00 to 12:59 with 午前/午後 or AM/PM, got %q", clock))
			}
			if strings.Contains(text, "\n") && len(text) >= 2 && strings.HasPrefix(text, `"`) && strings.HasSuffix(text, `"`) {
				text = text[1 : len(text)-1]
			}
			if sender == "" {
				sender = chat.SystemSender
			}
			tr.msgs = append(tr.msgs, pendingMessage{day: len(tr.days) - 1, hour: h, minute: m, second: sec, sender: sender, text: text})
			messageSinceDay = true
		case isDayShape(rec.text):
			d, ok := parseDay(rec)
			if ok || afterBlank || !messageSinceDay {
				if !ok {
					return tr.errorAt(rec.line, fmt.Sprintf("a day line naming a real calendar date, got %q", clip(rec.text)))
				}
				tr.days = append(tr.days, d)
				messageSinceDay = false
				break
			}
			tr.result.Warnings = append(tr.result.Warnings, Warning{File: tr.source, Line: rec.line.num,
				Message: fmt.Sprintf("%q is shaped like a day line but names no real date; read as a line of the message before it", clip(rec.text))})
			tr.continueMessage(rec)
		default:
			if afterBlank || !messageSinceDay {
				return tr.errorAt(rec.line, fmt.Sprintf("a day line such as 2024/01/14(日) or Sun, 01/14/2024, got %q", clip(rec.text)))
			}
			tr.continueMessage(rec)
		}
		afterBlank = false
	}
	return nil
}

// continueMessage appends an unquoted continuation line to the last message.
func (tr *textReader) continueMessage(rec record) {
	last := &tr.msgs[len(tr.msgs)-1]
	last.more = append(last.more, rec.text)
}

// parseDay reads a day line of either shape. A/B/YYYY lines are returned
// unresolved (ok reports only that the numbers could be a date).
func parseDay(rec record) (textDay, bool) {
	d := textDay{line: rec.line, rawDayLine: rec.text}
	if g := dayYMD.FindStringSubmatch(rec.text); g != nil {
		d.y, _ = digits(g[1])
		d.a, _ = digits(g[3])
		d.b, _ = digits(g[5])
		if g[2] != g[4] {
			return d, false
		}
		var ok bool
		d.day, ok = calendarDate(d.y, d.a, d.b)
		d.date = d.day.Format(chat.DateLayout)
		return d, ok
	}
	g := dayWeekdayAB.FindStringSubmatch(rec.text)
	d.a, _ = digits(g[1])
	d.b, _ = digits(g[2])
	d.y, _ = digits(g[3])
	d.ambiguous = true
	return d, d.a >= 1 && d.b >= 1 && min(d.a, d.b) <= 12 && max(d.a, d.b) <= 31
}

// resolveDays fixes the order of A/B/YYYY day lines for the whole file and
// checks that each names a real date.
func (tr *textReader) resolveDays() error {
	var dayFirst, monthFirst *textDay
	var undecided *textDay
	for i := range tr.days {
		d := &tr.days[i]
		if !d.ambiguous {
			continue
		}
		switch {
		case d.a > 12 && dayFirst == nil:
			dayFirst = d
		case d.b > 12 && monthFirst == nil:
			monthFirst = d
		case d.a <= 12 && d.b <= 12 && d.a != d.b && undecided == nil:
			undecided = d
		}
	}
	if dayFirst != nil && monthFirst != nil {
		later := max(dayFirst.line.num, monthFirst.line.num)
		bad := dayFirst
		if monthFirst.line.num == later {
			bad = monthFirst
		}
		return tr.errorAt(bad.line, fmt.Sprintf("day lines in one order throughout the file; line %d is day-first (%q) and line %d month-first (%q)",
			dayFirst.line.num, dayFirst.rawDayLine, monthFirst.line.num, monthFirst.rawDayLine))
	}
	if dayFirst == nil && monthFirst == nil && undecided != nil {
		tr.result.Warnings = append(tr.result.Warnings, Warning{File: tr.source, Line: undecided.line.num,
			Message: fmt.Sprintf("day line %q could be dd/mm or mm/dd and no day line in the file decides; read month-first", undecided.rawDayLine)})
	}
	for i := range tr.days {
		d := &tr.days[i]
		if !d.ambiguous {
			continue
		}
		month, day := d.a, d.b
		if dayFirst != nil {
			month, day = d.b, d.a
		}
		t, ok := calendarDate(d.y, month, day)
		if !ok {
			return tr.errorAt(d.line, fmt.Sprintf("a day line naming a real calendar date, got %q", d.rawDayLine))
		}
		d.day, d.date = t, t.Format(chat.DateLayout)
	}
	return nil
}

func (tr *textReader) errorAt(l physicalLine, expected string) error {
	return &InputError{File: tr.source, Line: l.num, Offset: l.off, Expected: expected}
}

// clip shortens s for an error message.
func clip(s string) string {
	const maxRunes = 60
	if r := []rune(s); len(r) > maxRunes {
		return string(r[:maxRunes]) + "…"
	}
	return s
}

// ChatTitle returns the chat's title from a .txt header line: X of
// "[LINE] Xとのトーク履歴", "[LINE] Xのトーク履歴", "[LINE] Chat history with
// X" and "[LINE] Chat history in X", else everything after "[LINE] ",
// trimmed; "" when line is no header.
func ChatTitle(line string) string {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(line, "\uFEFF"), "[LINE] ")
	if !ok {
		return ""
	}
	rest = strings.TrimSpace(rest)
	for _, suffix := range []string{"とのトーク履歴", "のトーク履歴"} {
		if t, ok := strings.CutSuffix(rest, suffix); ok && strings.TrimSpace(t) != "" {
			return strings.TrimSpace(t)
		}
	}
	for _, prefix := range []string{"Chat history with ", "Chat history in "} {
		if t, ok := strings.CutPrefix(rest, prefix); ok && strings.TrimSpace(t) != "" {
			return strings.TrimSpace(t)
		}
	}
	return rest
}

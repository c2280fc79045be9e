package everyday

import (
	"strings"

	"github.com/linemem/linemem/lib/chat"
)

// withoutSendClocks returns text with the clock of each raw_text line head
// (chat.SendClock: the HH:MM of `{date} {HH:MM} {sender}: {body}`) turned
// into spaces, byte for byte, so every other byte keeps its offset. The
// time a message was sent is not a word of it: read as one, a question's
// 8時半 (08:30) found a window for a message sent at 08:30 about the
// weather. The date and the sender stay terms: a question names a day or a
// person as often as the text does. A text without line heads (a message,
// a question) is returned as it is.
func withoutSendClocks(text string) string {
	var b []byte
	for at := 0; at < len(text); {
		line := text[at:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		if start, end, ok := chat.SendClock(line); ok {
			if b == nil {
				b = []byte(text)
			}
			for k := at + start; k < at+end; k++ {
				b[k] = ' '
			}
		}
		at += len(line) + 1
	}
	if b == nil {
		return text
	}
	return string(b)
}

package synth

import (
	"bytes"
	"strings"
)

// txtPlaceholders are the texts a LINE .txt export shows for media (spec §3).
var txtPlaceholders = map[string]string{
	"photo":    "[写真]",
	"sticker":  "[スタンプ]",
	"video":    "[動画]",
	"file":     "[ファイル]",
	"voice":    "[ボイスメッセージ]",
	"location": "[位置情報]",
}

// exportText writes the conversation as the LINE app's "send chat history"
// text (spec §3): header, save date, then a day line per date and
// TIME⇥SENDER⇥TEXT lines with LF record ends. Multi-line texts are quoted,
// media become placeholders, system events have no sender column. A text
// export has no unknown times, so every message shows the time it was sent.
// Call exportJSON first: it fixes the message order.
func (s *source) exportText(savedOn string) []byte {
	var b bytes.Buffer
	kind := "とのトーク履歴"
	if len(s.members) > 1 {
		kind = "のトーク履歴"
	}
	b.WriteString("[LINE] " + s.title + kind + "\n")
	b.WriteString("保存日時：" + savedOn + "\n\n")
	weekdays := []string{"日", "月", "火", "水", "木", "金", "土"}
	day := ""
	for _, m := range s.written {
		if d := m.at.Format("2006/01/02"); d != day {
			if day != "" {
				b.WriteString("\n")
			}
			day = d
			b.WriteString(d + "(" + weekdays[m.at.Weekday()] + ")\n")
		}
		text := m.text
		if p, ok := txtPlaceholders[m.typ]; ok {
			text = p
		}
		if strings.Contains(text, "\n") {
			text = `"` + text + `"`
		}
		b.WriteString(m.at.Format("15:04") + "\t")
		if m.sender != "" {
			b.WriteString(m.sender + "\t")
		}
		b.WriteString(text + "\n")
	}
	return b.Bytes()
}

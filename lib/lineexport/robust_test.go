package lineexport_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"

	"github.com/linemem/linemem/lib/lineexport"
)

func TestTypeOfNotices(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"You unsent a message", "unsend"},
		{"You unsent a message.", "unsend"},
		{"Ren unsent a message. ", "unsend"},
		{"佐藤花子がメッセージの送信を取り消しました", "unsend"},
		{"佐藤花子がメッセージの送信を取り消しました。", "unsend"},
		{"メッセージの送信を取り消しました！", "unsend"},
		{"☎ Missed call.", "call"},
		{"Canceled the call.", "call"},
		{"I unsent a message to him and then called", "text"},
	} {
		if got := lineexport.TypeOf(c.text); got != c.want {
			t.Errorf("TypeOf(%q) = %s, want %s", c.text, got, c.want)
		}
	}
}

// messagesOf reads data as a .txt export and renders each message on one line.
func messagesOf(t *testing.T, data []byte) ([]string, []lineexport.Warning) {
	t.Helper()
	res, err := lineexport.ReadText("t.txt", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range res.Messages {
		out = append(out, strings.Join([]string{m.Date, m.Time, m.Sender, m.Type, m.Text}, "|"))
	}
	return out, res.Warnings
}

// TestCRLFMatchesLF: a file whose every line ends in CRLF gives the messages
// of its LF copy, quoted multi-line messages included.
func TestCRLFMatchesLF(t *testing.T) {
	for _, name := range []string{"lf_multiline.txt", "ja_1to1.txt", "en_group.txt"} {
		t.Run(name, func(t *testing.T) {
			lf, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
			a, _ := messagesOf(t, lf)
			b, _ := messagesOf(t, crlf)
			if strings.Join(a, "\x00") != strings.Join(b, "\x00") {
				t.Errorf("LF:   %q\nCRLF: %q", a, b)
			}
		})
	}
}

func TestOtherEncodings(t *testing.T) {
	utf8Data, err := os.ReadFile(filepath.Join("testdata", "lf_multiline.txt"))
	if err != nil {
		t.Fatal(err)
	}
	utf8Data = bytes.TrimPrefix(utf8Data, []byte("\xEF\xBB\xBF"))
	want, _ := messagesOf(t, utf8Data)
	for _, c := range []struct {
		name string
		enc  func([]byte) ([]byte, error)
	}{
		{"Shift_JIS", japanese.ShiftJIS.NewEncoder().Bytes},
		{"UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes},
		{"UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder().Bytes},
		{"UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().Bytes},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := c.enc(utf8Data)
			if err != nil {
				t.Fatal(err)
			}
			got, warnings := messagesOf(t, data)
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Errorf("converted messages differ:\n got %q\nwant %q", got, want)
			}
			if len(warnings) == 0 || !strings.Contains(warnings[0].Message, c.name) {
				t.Errorf("warnings %v, want a first one naming %s", warnings, c.name)
			}
		})
	}
	t.Run("English text in UTF-16, whose bytes are valid UTF-8", func(t *testing.T) {
		ascii := []byte("[LINE] Chat history with Ken\r\nSaved on: 2024/01/20 21:03\r\n\r\n2024/01/14(Sun)\r\n9:05\tKen\tgood morning\r\n9:06:30 PM\tMe\thello\r\n")
		want, _ := messagesOf(t, ascii)
		for _, e := range []struct {
			name string
			enc  encoding.Encoding
		}{
			{"UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
			{"UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
			{"UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)},
			{"UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.UseBOM)},
		} {
			data, err := e.enc.NewEncoder().Bytes(ascii)
			if err != nil {
				t.Fatal(err)
			}
			got, warnings := messagesOf(t, data)
			if len(want) != 2 || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Errorf("%s: messages %q, want %q", e.name, got, want)
			}
			if len(warnings) == 0 || !strings.Contains(warnings[0].Message, e.name) {
				t.Errorf("%s: warnings %v, want a first one naming it", e.name, warnings)
			}
		}
	})
	t.Run("unknown bytes get a hint", func(t *testing.T) {
		_, err := lineexport.ReadText("t.txt", bytes.NewReader(append([]byte("[LINE] x\n\xff\xfe\xfd"), 0x80)))
		var ie *lineexport.InputError
		if !errors.As(err, &ie) || ie.Line != 2 || !strings.Contains(err.Error(), "iconv") {
			t.Errorf("error %v, want an input error on line 2 with a conversion hint", err)
		}
	})
}

func TestCROnlyAndHeaderOnly(t *testing.T) {
	lf, err := os.ReadFile(filepath.Join("testdata", "ja_1to1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := messagesOf(t, lf)
	got, warnings := messagesOf(t, bytes.ReplaceAll(lf, []byte("\n"), []byte("\r")))
	if len(want) == 0 || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("CR-only copy gave %d messages, want the LF file's %d", len(got), len(want))
	}
	if len(warnings) == 0 || !strings.Contains(warnings[0].Message, "CR alone") {
		t.Errorf("CR-only warnings %v", warnings)
	}
	// A CR-only file whose first byte is CR is converted too: its first line
	// is then empty, and the header error says so.
	_, err = lineexport.ReadText("t.txt", strings.NewReader("\r[LINE] x\r\r2024/01/14(日)\r"))
	if err == nil || !strings.Contains(err.Error(), `t.txt:1: expected a header line`) || !strings.Contains(err.Error(), `got ""`) {
		t.Errorf("CR first: %v, want a header error on an empty line 1", err)
	}
	for _, body := range []string{"[LINE] 佐藤花子とのトーク履歴\n保存日時：2024/01/20 21:03\n\n", "[LINE] Chat history with Ren\n", "[LINE] x\n\n2024/01/14(日)\n"} {
		got, warnings := messagesOf(t, []byte(body))
		last := strings.Count(body, "\n") // the warning names the file's last line
		if len(got) != 0 || len(warnings) != 1 || !strings.Contains(warnings[0].Message, "no messages") || warnings[0].Line != last {
			t.Errorf("%q: %d messages, warnings %v; want none and a warning on line %d", body, len(got), warnings, last)
		}
	}
}

// TestReadFileErrorNamesThePath: an error of ReadFile names the file as
// given, folder included, with the line.
func TestReadFileErrorNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chats", "[LINE] X.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("[LINE] Chat history in X\nSaved on: 2024/01/01 10:00\n\n2024/01/01(Mon)\n25:70\tA\thi\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := lineexport.ReadFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":5: expected a time") {
		t.Errorf("error %v, want it to start %q", err, path+":5: expected a time")
	}
}

// TestInvalidUTF8AtTheFirstByte: a file whose very first byte is not UTF-8
// is refused at line 1, as one with a bad byte further on is.
func TestInvalidUTF8AtTheFirstByte(t *testing.T) {
	for _, name := range []string{"x.txt", "x.json"} {
		_, err := lineexport.ReadBytes(name, []byte("\xff[LINE] Chat history in X\n"))
		if err == nil || !strings.Contains(err.Error(), name+":1: expected valid UTF-8, got byte 0xFF") {
			t.Errorf("%s: %v, want the bad first byte refused at line 1", name, err)
		}
	}
}

// TestDayShapedContinuationWarns: a day-shaped line that names no real date
// after a message is read as a line of that message, and a warning names
// its line; a real day line after a message warns of nothing.
func TestDayShapedContinuationWarns(t *testing.T) {
	const header = "[LINE] x\n\n2024/01/14(日)\n10:00\tAoi\tdeadline:\n"
	got, warnings := messagesOf(t, []byte(header+"2024/13/45(月)\n10:01\tRen\tok\n"))
	want := []string{"2024-01-14|10:00:00|Aoi|text|deadline:\n2024/13/45(月)", "2024-01-14|10:01:00|Ren|text|ok"}
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("got %q, want %q", got, want)
	}
	if len(warnings) != 1 || warnings[0].Line != 5 || !strings.Contains(warnings[0].Message, "2024/13/45(月)") || !strings.Contains(warnings[0].Message, "no real date") {
		t.Errorf("warnings %v, want one at line 5 naming 2024/13/45(月)", warnings)
	}
	if _, warnings := messagesOf(t, []byte(header+"2024/01/15(月)\n10:01\tRen\tok\n")); len(warnings) != 0 {
		t.Errorf("a real day line: warnings %v", warnings)
	}
}

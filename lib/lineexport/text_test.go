package lineexport_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/lineexport"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the fixtures")

// TestTextFixtures reads every fixture in testdata and compares the messages
// (spec §1 fields, one JSON object a line) and warnings with
// testdata/golden/NAME.jsonl and NAME.warnings.
func TestTextFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no fixtures in testdata")
	}
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			res, err := lineexport.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var messages, warnings bytes.Buffer
			enc := json.NewEncoder(&messages)
			enc.SetEscapeHTML(false)
			for _, m := range res.Messages {
				if err := enc.Encode(toExpected(m)); err != nil {
					t.Fatal(err)
				}
			}
			for _, w := range res.Warnings {
				warnings.WriteString(w.String() + "\n")
			}
			stem := filepath.Join("testdata", "golden", strings.TrimSuffix(name, ".txt"))
			compareGolden(t, stem+".jsonl", messages.Bytes())
			compareGolden(t, stem+".warnings", warnings.Bytes())
		})
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gotLines), len(wantLines)) {
			g, w := lineAt(gotLines, i), lineAt(wantLines, i)
			if g != w {
				t.Fatalf("%s line %d:\n got %s\nwant %s", path, i+1, g, w)
			}
		}
	}
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<none>"
}

// header is a minimal valid header block for inline inputs.
const header = "[LINE] Aoiとのトーク履歴\n保存日時：2024/01/20 21:03\n\n"

// readOne parses header + body and returns the messages' (date, time,
// sender, type, text) tuples joined for comparison.
func readOne(t *testing.T, body string) []string {
	t.Helper()
	res, err := lineexport.ReadText("t.txt", strings.NewReader(header+body))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range res.Messages {
		out = append(out, strings.Join([]string{m.Date, m.Time, m.Sender, m.Type, m.Text}, "|"))
	}
	return out
}

func TestReadTextTimes(t *testing.T) {
	tests := []struct {
		clock string
		want  string // HH:MM:SS
	}{
		{"9:05", "09:05:00"},
		{"09:05", "09:05:00"},
		{"0:00", "00:00:00"},
		{"23:59", "23:59:00"},
		{"午前9:05", "09:05:00"},
		{"午前12:05", "00:05:00"}, // 12 AM is hour 0
		{"午前0:05", "00:05:00"},
		{"午後12:05", "12:05:00"}, // 12 PM is hour 12
		{"午後0:05", "12:05:00"},
		{"午後9:05", "21:05:00"},
		{"9:05AM", "09:05:00"},
		{"12:05AM", "00:05:00"},
		{"12:05 PM", "12:05:00"},
		{"11:59 PM", "23:59:00"},
		{"7:45pm", "19:45:00"},
		{"8:00 a.m.", "08:00:00"},
	}
	for _, tc := range tests {
		t.Run(tc.clock, func(t *testing.T) {
			got := readOne(t, "2024/01/14(日)\n"+tc.clock+"\tAoi\thi\n")
			want := "2024-01-14|" + tc.want + "|Aoi|text|hi"
			if len(got) != 1 || got[0] != want {
				t.Errorf("got %q, want [%q]", got, want)
			}
		})
	}
}

func TestReadTextDayLines(t *testing.T) {
	tests := []struct {
		line string
		want string
	}{
		{"2024/01/14(日)", "2024-01-14"},
		{"2024/01/14(Sun)", "2024-01-14"},
		{"2024/1/5(金)", "2024-01-05"},
		{"2015/12/25 Fri", "2015-12-25"},
		{"2017.09.02 Saturday", "2017-09-02"},
		{"2025.12.30 火曜日", "2025-12-30"},
		{"2024/01/14", "2024-01-14"},
		{"Sun, 01/14/2024", "2024-01-14"},
		{"Sun, 14/01/2024", "2024-01-14"},
		{"Sun, 01/01/2024", "2024-01-01"},
		{"2024/02/29(木)", "2024-02-29"},
		{"Thu, 12/12/2024", "2024-12-12"}, // both 12: the largest month either way
		{"Sun, 31/12/2023", "2023-12-31"}, // 31 > 12: day-first, the largest day
		{"Wed, 01/31/2024", "2024-01-31"}, // 31 > 12: month-first
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			got := readOne(t, tc.line+"\n10:00\tAoi\thi\n")
			want := tc.want + "|10:00:00|Aoi|text|hi"
			if len(got) != 1 || got[0] != want {
				t.Errorf("got %q, want [%q]", got, want)
			}
		})
	}
}

func TestReadTextMessages(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"empty chat", "", nil},
		{"day without messages", "2024/01/14(日)\n", nil},
		{"two columns is a system line", "2024/01/14(日)\n22:10\tAoiがメッセージの送信を取り消しました\n",
			[]string{"2024-01-14|22:10:00|SYSTEM|unsend|Aoiがメッセージの送信を取り消しました"}},
		{"empty sender column", "2024/01/14(日)\n22:10\t\tRenがグループに参加しました。\n",
			[]string{"2024-01-14|22:10:00|SYSTEM|text|Renがグループに参加しました。"}},
		{"empty text", "2024/01/14(日)\n22:10\tAoi\t\n", []string{"2024-01-14|22:10:00|Aoi|text|"}},
		{"tabs after the second are text", "2024/01/14(日)\n22:10\tAoi\ta\tb\n", []string{"2024-01-14|22:10:00|Aoi|text|a\tb"}},
		{"unquoted continuation", "2024/01/14(日)\n22:10\tAoi\tfirst\nsecond\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|first\nsecond"}},
		{"quote closed at end of file", "2024/01/14(日)\n22:10\tAoi\t\"a\nb\"",
			[]string{"2024-01-14|22:10:00|Aoi|text|a\nb"}},
		{"quote closed before a day line", "2024/01/14(日)\n22:10\tAoi\t\"a\nb\"\n\n2024/01/15(月)\n1:00\tRen\tc\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|a\nb", "2024-01-15|01:00:00|Ren|text|c"}},
		{"quote not closed before the next message", "2024/01/14(日)\n22:10\tAoi\t\"a\nb\n22:11\tRen\tc\"\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|\"a\nb", "2024-01-14|22:11:00|Ren|text|c\""}},
		{"line ending in a quote that is not followed by a message", "2024/01/14(日)\n22:10\tAoi\t\"a\nb\"\nc\"\n22:11\tRen\td\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|a\nb\"\nc", "2024-01-14|22:11:00|Ren|text|d"}},
		{"day-shaped continuation that names no date", "2024/01/14(日)\n22:10\tAoi\tdeadline:\n2024/02/30(金)\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|deadline:\n2024/02/30(金)"}},
		{"blank lines between messages", "2024/01/14(日)\n22:10\tAoi\ta\n\n22:11\tRen\tb\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|a", "2024-01-14|22:11:00|Ren|text|b"}},
		{"single quoted line keeps its quotes", "2024/01/14(日)\n22:10\tAoi\t\"a\"\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|\"a\""}},
		{"quote never closed keeps its quote", "2024/01/14(日)\n22:10\tAoi\t\"a\nb\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|\"a\nb"}},
		{"a quoted one-line text before a day line stays one line", "2024/01/14(日)\n22:10\tAoi\t\"\"\n2024/01/15 Mon\"\n1:00\tRen\tc\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|\"\"", "2024-01-15|01:00:00|Ren|text|c"}},
		{"a day-shaped line right after a quoted line is inside the quote", "2024/01/14(日)\n22:10\tAoi\t\"deadline\n2024/02/30(金)\nend\"\n22:11\tRen\tx\n",
			[]string{"2024-01-14|22:10:00|Aoi|text|deadline\n2024/02/30(金)\nend", "2024-01-14|22:11:00|Ren|text|x"}},
		{"placeholders", "2024/01/14(日)\n1:00\tAoi\t[Photo]\n1:01\tAoi\t[写真] です\n1:02\tAoi\t☎ Missed call\n",
			[]string{"2024-01-14|01:00:00|Aoi|photo|[Photo]", "2024-01-14|01:01:00|Aoi|text|[写真] です", "2024-01-14|01:02:00|Aoi|call|☎ Missed call"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := readOne(t, tc.body)
			if strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestReadTextCRLF(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // texts
	}{
		{"bare LFs inside a message",
			"[LINE] Chat history with Ren\r\nSaved on: 2024/01/20 21:03\r\n\r\n2024/01/14(Sun)\r\n" +
				"10:00\tRen\t\"a\n10:01\tRen\tstill the first message\n\nb\"\r\n10:02\tAoi\tc\r\n",
			[]string{"a\n10:01\tRen\tstill the first message\n\nb", "c"}},
		{"a bare LF ends the file",
			"[LINE] x\r\n\r\n2024/01/14(Sun)\r\n10:00\tRen\t\"a\nb\"\n",
			[]string{"a\nb"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := lineexport.ReadText("t.txt", strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Messages) != len(tc.want) {
				t.Fatalf("got %d messages, want %d", len(res.Messages), len(tc.want))
			}
			for i, m := range res.Messages {
				if m.Text != tc.want[i] {
					t.Errorf("message %d text %q, want %q", i, m.Text, tc.want[i])
				}
			}
		})
	}
}

func TestReadTextDayOrder(t *testing.T) {
	t.Run("day over 12 decides day-first", func(t *testing.T) {
		got := readOne(t, "Fri, 05/01/2024\n1:00\tA\tx\n\nSat, 13/01/2024\n1:00\tA\ty\n")
		want := []string{"2024-01-05|01:00:00|A|text|x", "2024-01-13|01:00:00|A|text|y"}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("undecided reads month-first and warns once", func(t *testing.T) {
		res, err := lineexport.ReadText("t.txt", strings.NewReader(header+"Sat, 01/01/2024\n1:00\tA\tx\n\nTue, 05/01/2024\n1:00\tA\ty\n\nSun, 02/03/2024\n1:00\tA\tz\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := []string{res.Messages[0].Date, res.Messages[1].Date, res.Messages[2].Date}; strings.Join(got, ",") != "2024-01-01,2024-05-01,2024-02-03" {
			t.Errorf("dates %v", got)
		}
		if len(res.Warnings) != 1 || res.Warnings[0].Line != 7 { // the first line where A ≠ B
			t.Errorf("warnings %v, want one on line 7", res.Warnings)
		}
	})
}

// TestReadTextDayOrderBoundary pins the 12/13 boundary of day-order
// detection: 12 can be a month, so a day line 12/05/2024 or 05/12/2024
// decides nothing, and the file is read month-first with a warning.
func TestReadTextDayOrderBoundary(t *testing.T) {
	for _, c := range []struct{ line, date string }{
		{"Sun, 12/05/2024", "2024-12-05"},
		{"Thu, 05/12/2024", "2024-05-12"},
	} {
		t.Run(c.line, func(t *testing.T) {
			res, err := lineexport.ReadText("t.txt", strings.NewReader(header+c.line+"\n1:00\tA\tx\n"))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Messages) != 1 || res.Messages[0].Date != c.date {
				t.Fatalf("messages %+v, want one dated %s (month-first)", res.Messages, c.date)
			}
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "read month-first") {
				t.Errorf("warnings %v, want one saying the file is read month-first", res.Warnings)
			}
		})
	}
	t.Run("13 decides day-first", func(t *testing.T) {
		got := readOne(t, "Wed, 12/06/2024\n1:00\tA\tx\n\nThu, 13/06/2024\n1:00\tA\ty\n")
		want := []string{"2024-06-12|01:00:00|A|text|x", "2024-06-13|01:00:00|A|text|y"}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}

func TestReadTextBadInput(t *testing.T) {
	const file = "bad.txt"
	tests := []struct {
		name      string
		input     string
		line      int
		fragments []string
	}{
		{"empty file", "", 1, []string{"header", "empty file"}},
		{"no header", "2024/01/14(日)\n10:00\tAoi\thi\n", 1, []string{"header"}},
		{"header without a name", "[LINE] \n", 1, []string{"header"}},
		{"day line that is not a date", header + "2024/01/14(日)\n10:00\tAoi\thi\n\n2024/02/30(金)\n10:00\tAoi\thi\n", 7, []string{"real calendar date", "2024/02/30"}},
		{"text where a day line belongs", header + "2024/01/14(日)\n10:00\tAoi\thi\n\nyesterday\n", 7, []string{"day line", "yesterday"}},
		{"message line before any day line", header + "10:00\tAoi\thi\n", 4, []string{"day line", "before the first message"}},
		{"text right after a day line", header + "2024/01/14(日)\nhello\n", 5, []string{"day line", "hello"}},
		{"time out of range", header + "2024/01/14(日)\n25:99\tAoi\thi\n", 5, []string{"time", "25:99"}},
		{"12-hour time out of range", header + "2024/01/14(日)\n午後13:00\tAoi\thi\n", 5, []string{"time"}},
		{"mixed day orders", header + "Sat, 13/01/2024\n1:00\tA\tx\n\nSun, 01/14/2024\n1:00\tA\ty\n", 7, []string{"one order"}},
		{"month-first date not in calendar", header + "Fri, 02/30/2024\n1:00\tA\tx\n", 4, []string{"real calendar date"}},
		{"invalid UTF-8", header + "2024/01/14(日)\n10:00\tAoi\th\xffi\n", 5, []string{"valid UTF-8"}},
		{"quote search stops at a day line after a blank", header + "2024/01/14(日)\n22:10\tAoi\t\"a\n\n2024/01/15(月)\nx\"\n22:11\tRen\tb\n", 8,
			[]string{"day line", `got "x\""`}},
		{"a quoted message line before any day line is quoted alone", "[LINE] x\n10:00\tA\t\"a\n10:01\tB\tb\n", 2,
			[]string{fmt.Sprintf("before the first message, got message line %q", "10:00\tA\t\"a")}},
		{"a quote never closed before any day line is quoted alone", "[LINE] x\n10:00\tA\t\"a\nb\n", 2,
			[]string{fmt.Sprintf("before the first message, got message line %q", "10:00\tA\t\"a")}},
		{"a line of 60 characters is quoted whole", header + "2024/01/14(日)\n10:00\tAoi\thi\n\n" + strings.Repeat("あ", 60) + "\n", 7,
			[]string{fmt.Sprintf("got %q", strings.Repeat("あ", 60))}},
		{"a longer line is cut at 60 characters", header + "2024/01/14(日)\n10:00\tAoi\thi\n\n" + strings.Repeat("あ", 61) + "\n", 7,
			[]string{fmt.Sprintf("got %q", strings.Repeat("あ", 60)+"…")}},
		{"CR-only file opening with a blank line", "\r[LINE] x\r\r2024/01/14(日)\r", 1, []string{"header", `got ""`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := lineexport.ReadText(file, strings.NewReader(tc.input))
			if err == nil {
				t.Fatalf("got %d messages and no error", len(res.Messages))
			}
			inputError(t, err, file, tc.line, tc.fragments...)
		})
	}
}

// TestReadTextLineEnds reads one conversation in each layout of line ends: a
// bare LF outside quotes is a line break in every layout, and in a CRLF file
// one followed by a message or day line is named in a warning.
func TestReadTextLineEnds(t *testing.T) {
	const head = "[LINE] Chat history with Ken\r\nSaved on: 2025/12/06 19:57\r\n\r\n2024/01/14(Sun)\r\n"
	three := []string{"2024-01-14 good morning", "2024-01-14 hello back", "2024-01-14 third"}
	tests := []struct {
		name, in string
		want     []string // date and text of each message
		warnLine int      // line of the bare-LF warning; 0 = none
	}{
		{"CRLF", head + "09:05\tKen\tgood morning\r\n09:06\tMe\thello back\r\n09:07\tKen\tthird\r\n", three, 0},
		{"LF", strings.ReplaceAll(head, "\r\n", "\n") + "09:05\tKen\tgood morning\n09:06\tMe\thello back\n09:07\tKen\tthird\n", three, 0},
		{"mixed: bare LF before a message line", head + "09:05\tKen\tgood morning\n09:06\tMe\thello back\r\n09:07\tKen\tthird\r\n", three, 5},
		{"mixed: bare LF before a day line", head + "09:05\tKen\tgood morning\n\n2024/01/15(Mon)\n09:06\tMe\thello back\r\n",
			[]string{"2024-01-14 good morning", "2024-01-15 hello back"}, 6},
		{"mixed: bare LF before plain text continues the message", head + "09:05\tKen\tgood\nmorning\r\n09:06\tMe\thello back\r\n",
			[]string{"2024-01-14 good\nmorning", "2024-01-14 hello back"}, 0},
		{"quoted: inner bare LFs are the message's", head + "09:05\tKen\t\"good\n09:06\tMe\tstill Ken's\nmorning\"\r\n09:07\tKen\tthird\r\n",
			[]string{"2024-01-14 good\n09:06\tMe\tstill Ken's\nmorning", "2024-01-14 third"}, 0},
		{"quoted: a closed quote before a message line ends there", head + "09:05\tKen\t\"good morning\"\n09:06\tMe\thello back\r\n",
			[]string{"2024-01-14 \"good morning\"", "2024-01-14 hello back"}, 5},
		{"quoted: a quote closed on a later line before a message line", head + "09:05\tKen\t\"good\nmorning\"\n09:06\tMe\thello back\r\n",
			[]string{"2024-01-14 good\nmorning", "2024-01-14 hello back"}, 6},
		{"quoted: an empty quoted text before a message line", head + "09:05\tKen\t\"\"\n09:06\tMe\thello back\r\n",
			[]string{"2024-01-14 \"\"", "2024-01-14 hello back"}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := lineexport.ReadText("c.txt", strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Messages {
				got = append(got, m.Date+" "+m.Text)
			}
			if strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			var warned []int
			for _, w := range res.Warnings {
				if strings.Contains(w.Message, "bare LF") {
					warned = append(warned, w.Line)
				}
			}
			if want := []int{tc.warnLine}; (tc.warnLine == 0 && len(warned) > 0) || (tc.warnLine > 0 && (len(warned) != 1 || warned[0] != want[0])) {
				t.Errorf("bare-LF warnings at lines %v, want %v (0 = none)", warned, tc.warnLine)
			}
		})
	}
}

// TestReadTextTimeForms: every TIME form with and without seconds, and the
// error that names a time out of range.
func TestReadTextTimeForms(t *testing.T) {
	for _, c := range []struct{ clock, want string }{
		{"9:05", "09:05:00"}, {"09:05:30", "09:05:30"}, {"21:05:59", "21:05:59"},
		{"9:05 PM", "21:05:00"}, {"9:05:30 PM", "21:05:30"}, {"12:00:01AM", "00:00:01"}, {"12:59:59 p.m.", "12:59:59"},
		{"午後9:05", "21:05:00"}, {"午前9:05:07", "09:05:07"},
	} {
		got := readOne(t, "2024/01/14(日)\n"+c.clock+"\tA\tx\n")
		if want := "2024-01-14|" + c.want + "|A|text|x"; len(got) != 1 || got[0] != want {
			t.Errorf("%q: got %q, want %q", c.clock, got, want)
		}
	}
	for _, clock := range []string{"9:05:60", "24:00:00", "13:05:30 PM", "9:60 PM"} {
		_, err := lineexport.ReadText("t.txt", strings.NewReader(header+"2024/01/14(日)\n"+clock+"\tA\tx\n"))
		var ie *lineexport.InputError
		if !errors.As(err, &ie) || ie.Line != 5 || !strings.Contains(err.Error(), "seconds optional") || !strings.Contains(err.Error(), strconv.Quote(clock)) {
			t.Errorf("%q: error %v, want one on line 5 naming the time forms and %q", clock, err, clock)
		}
	}
}

func TestChatTitle(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"[LINE] 佐藤 花子とのトーク履歴", "佐藤 花子"},
		{"[LINE] かぞくのトーク履歴", "かぞく"},
		{"[LINE] Chat history in Tennis Club", "Tennis Club"},
		{"[LINE] Chat history with Ken", "Ken"},
		{"\uFEFF[LINE] Historique des discussions", "Historique des discussions"},
		{"2024/01/14(日)", ""},
	} {
		if got := lineexport.ChatTitle(c.line); got != c.want {
			t.Errorf("ChatTitle(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

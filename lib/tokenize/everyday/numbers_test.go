package everyday_test

import (
	"reflect"
	"testing"
)

// TestTimeAndDateEdges: each form of timeOrNumber at the edges of its
// ranges (H ≤ 24, MM < 60, am/pm after an hour 1–12, 1 ≤ M ≤ 12,
// 1 ≤ D ≤ 31, a first digit group of 1–3 digits), and each form in the
// middle of a text, where the words after it are read on.
func TestTimeAndDateEdges(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"24時", []string{"24:00"}},
		{"25時", terms([]string{"25", "時", "j:トキ"}, reading("トキ"))},
		{"7時59分", []string{"07:59"}},
		{"7時60分", terms([]string{"07:00", "60", "分", "j:ブン"}, reading("ブン"))},
		{"7時分", terms([]string{"07:00", "分", "j:ブン"}, reading("ブン"))}, // 分 without minutes is no part of the time
		{"午後11時", []string{"23:00"}},
		{"午後12時", []string{"12:00"}}, // 午後 adds 12 to an hour below 12 only
		{"7:59", []string{"07:59"}},
		{"7:60", []string{"7", "60"}},
		{"1:30pm", []string{"13:30"}},
		{"12:30pm", []string{"12:30"}},
		{"12:30am", []string{"00:30"}},
		{"0:30pm", []string{"00:30", "pm"}}, // am/pm only after an hour 1–12
		{"13:30pm", []string{"13:30", "pm"}},
		{"12pm", []string{"12:00"}},
		{"1am", []string{"01:00"}},
		{"0am", []string{"0"}},
		{"13pm", []string{"13", "pm"}},
		{"1/5", []string{"1/5"}},
		{"1/31", []string{"1/31"}},
		{"12/", []string{"12"}},
		{"12月1日", []string{"12/1"}},
		{"12月1", terms([]string{"12", "月", "j:ツキ"}, reading("ツキ"), []string{"1"})}, // no 日: no date
		{"1月31日", []string{"1/31"}},
		{"123,456", []string{"123456"}},
		{"1234,567", []string{"1234", "567"}},
		{"at 7時 cafe", []string{"07:00", "cafe"}},
		{"at 7:30 cafe", []string{"07:30", "cafe"}},
		{"at 7pm cafe", []string{"19:00", "cafe"}},
		{"at 12/7 cafe", []string{"12/7", "cafe"}},
		{"at 2024/12/7 cafe", []string{"2024", "12/7", "cafe"}},
		{"at 2024年12月7日 cafe", []string{"2024", "12/7", "cafe"}},
		{"at 3,000 cafe", []string{"3000", "cafe"}},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := newAnalyzer(t).Tokens(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

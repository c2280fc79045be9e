package memory_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/memory"
)

func TestParseTime(t *testing.T) {
	t.Setenv("TZ", "Asia/Tokyo")
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	saved := time.Local
	time.Local = tokyo
	t.Cleanup(func() { time.Local = saved })
	wall := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
	}
	cases := []struct {
		v     string
		upper bool
		want  time.Time
	}{
		{"", false, time.Time{}},
		{"2024-10-15", false, wall(2024, 10, 15, 0, 0, 0)},
		{"2024-10-15", true, wall(2024, 10, 15, 0, 0, 0).Add(24*time.Hour - time.Second)}, // the day's last second
		{"2024-10-15T20:00", true, wall(2024, 10, 15, 20, 0, 0)},
		{"2024-10-15 20:00:30", false, wall(2024, 10, 15, 20, 0, 30)},
		{"2024-10-15T20:00:00+09:00", false, wall(2024, 10, 15, 20, 0, 0)},                // the offset of TZ: the same wall clock
		{"2024-10-15T11:00:00Z", false, wall(2024, 10, 15, 11+9, 0, 0)},                   // UTC + 9 h in Tokyo
		{"2024-10-15T12:00:00.5-02:00", false, wall(2024, 10, 15, 12+2+9, 0, 0)},          // −02:00 → UTC → Tokyo, fraction dropped
		{"2024/10/15", true, wall(2024, 10, 15, 0, 0, 0).Add(24*time.Hour - time.Second)}, // as LINE writes a date
		{"2024/10/15 20:00", false, wall(2024, 10, 15, 20, 0, 0)},
	}
	for _, c := range cases {
		got, err := memory.ParseTime(c.v, c.upper)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("ParseTime(%q, %v) = %v, %v; want %v", c.v, c.upper, got, err, c.want)
		}
	}
	for _, bad := range []string{"last week", "2024-13-45", "2024-02-30", "15/10/2024", "2024/13/40"} {
		_, err := memory.ParseTime(" "+bad, false)
		if !errors.Is(err, memory.ErrBadQuery) || !strings.Contains(err.Error(), "RFC 3339") || !strings.Contains(err.Error(), fmt.Sprintf("%q is not a date", bad)) {
			t.Errorf("ParseTime(%q): %v, want a bad query quoting it as typed and naming the forms", bad, err)
		}
	}
}

func TestSplitNames(t *testing.T) {
	if got := memory.SplitNames("tennis, 佐藤", "", " ,かぞく,"); !slices.Equal(got, []string{"tennis", "佐藤", "かぞく"}) {
		t.Errorf("SplitNames = %q", got)
	}
}

// TestParseFilters: comma lists of sources, an exact title before a loose
// match, the user's name in either language, unknown names with the
// closest ones offered (only among the allowed sources), and nothing set on
// an error.
func TestParseFilters(t *testing.T) {
	m, err := memory.Open(mixedStore(t), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const tennis, sato, family = "[LINE] Tennis Club.txt", "[LINE] 佐藤 花子.txt", "[LINE] かぞく.txt"
	ok := []struct {
		f       memory.Filters
		allowed []string
		sources []string
		sender  string
	}{
		{memory.Filters{Sources: []string{"tennis,佐藤"}}, nil, []string{tennis, sato}, ""},
		{memory.Filters{Sources: []string{"Tennis Club", "かぞく"}}, nil, []string{tennis, family}, ""},
		{memory.Filters{}, []string{family}, []string{family}, ""},
		{memory.Filters{Sender: "aya"}, nil, nil, "aya"},
		{memory.Filters{Sender: "Me"}, nil, nil, "自分"},
	}
	for _, c := range ok {
		var q memory.Query
		if err := m.ParseFilters(&q, c.f, c.allowed); err != nil || !slices.Equal(q.Sources, c.sources) || q.Sender != c.sender {
			t.Errorf("ParseFilters(%+v, %q): sources %q, sender %q, %v; want %q, %q", c.f, c.allowed, q.Sources, q.Sender, err, c.sources, c.sender)
		}
	}
	bad := []struct {
		f       memory.Filters
		allowed []string
		want    string
		never   string
	}{
		{memory.Filters{Sources: []string{"tennis,tenis"}}, nil, `no chat is called "tenis"; closest: "Tennis Club"`, ""},
		{memory.Filters{Sender: "ayo"}, nil, `no one called "ayo" wrote in these chats; closest: "Aya"`, ""},
		{memory.Filters{Sources: []string{"佐藤"}}, []string{tennis}, `no chat is called "佐藤"`, "佐藤 花子"},
		{memory.Filters{Since: "yesterday"}, nil, `since: bad query: "yesterday" is not a date`, ""},
		// quoted whole up to 40 characters
		{memory.Filters{Since: strings.Repeat("x", 40)}, nil, `"` + strings.Repeat("x", 40) + `" is not a date`, ""},
		{memory.Filters{Since: strings.Repeat("x", 41)}, nil, `"` + strings.Repeat("x", 40) + `…" is not a date`, ""},
	}
	for _, c := range bad {
		q := memory.Query{Sender: "kept"}
		err := m.ParseFilters(&q, c.f, c.allowed)
		if err == nil || !errors.Is(err, memory.ErrBadQuery) || !strings.Contains(err.Error(), c.want) || c.never != "" && strings.Contains(err.Error(), c.never) || q.Sender != "kept" {
			t.Errorf("ParseFilters(%+v, %q): %v (query %+v); want %q", c.f, c.allowed, err, q, c.want)
		}
	}
}

// TestUserNameInTheOtherLanguage: 自分 names the user of an English export,
// where the user is Me, and Me the user of a Japanese one.
func TestUserNameInTheOtherLanguage(t *testing.T) {
	for _, c := range []struct{ filter, user string }{{"自分", "Me"}, {"Me", "自分"}} {
		m, err := memory.Open(folderStore(t, oneChat(t, "Ken", c.user, "Ken")), memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var q memory.Query
		if err := m.ParseFilters(&q, memory.Filters{Sender: c.filter}, nil); err != nil || q.Sender != c.user {
			t.Errorf("--sender %s where the user wrote as %s: sender %q, %v", c.filter, c.user, q.Sender, err)
		}
	}
}

func ExampleSplitNames() {
	fmt.Println(memory.SplitNames("tennis, 佐藤", "かぞく"))
	// Output: [tennis 佐藤 かぞく]
}

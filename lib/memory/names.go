package memory

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/linemem/linemem/lib/chat"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// foldName is s in NFKC, case-folded, katakana as hiragana (ハルカ = はるか),
// with runs of white space as one space and no space at either end.
func foldName(s string) string {
	folded := strings.Map(func(r rune) rune {
		if 'ァ' <= r && r <= 'ヶ' {
			return r - ('ァ' - 'ぁ')
		}
		return r
	}, cases.Fold().String(norm.NFKC.String(s)))
	return strings.Join(strings.Fields(folded), " ")
}

// nameWords are the words of a folded name: its runs of letters and digits.
func nameWords(folded string) []string {
	return strings.FieldsFunc(folded, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// NameMatches reports whether a filter a person typed names name: after
// NFKC, case folding and katakana as hiragana (foldName), the name starts with the filter or
// one of its words (runs of letters and digits) equals it. "aya" names
// "Aya", "山田" names "山田 太郎", "tennis" names "[LINE] Tennis Club.txt"; an
// empty filter names nothing.
func NameMatches(name, filter string) bool {
	f := foldName(filter)
	if f == "" {
		return false
	}
	n := foldName(name)
	if strings.HasPrefix(n, f) {
		return true
	}
	for _, w := range nameWords(n) {
		if w == f {
			return true
		}
	}
	return false
}

// Closest returns up to limit of names ordered by how close each is to
// filter: the Levenshtein distance between the folded filter and the
// folded name or its closest word, then the name. It is what a "no such
// name" message offers.
func Closest(names []string, filter string, limit int) []string {
	f := foldName(filter)
	type scored struct {
		name string
		d    int
	}
	var all []scored
	for _, n := range names {
		fn := foldName(n)
		d := Levenshtein(f, fn)
		for _, w := range nameWords(fn) {
			d = min(d, Levenshtein(f, w))
		}
		all = append(all, scored{n, d})
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].d != all[j].d {
			return all[i].d < all[j].d
		}
		return all[i].name < all[j].name
	})
	var out []string
	for _, s := range all[:min(limit, len(all))] {
		out = append(out, s.name)
	}
	return out
}

// Levenshtein is the edit distance between a and b in characters
// (insertions, deletions and substitutions, each costing 1).
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// ErrNoSuchName marks a source or sender filter that names nothing in the
// memory; the message lists the closest names. Such an error is also an
// ErrBadQuery.
var ErrNoSuchName = errors.New("no such name")

// noSuchName is an error that is ErrNoSuchName and ErrBadQuery, worded by msg.
type noSuchName struct{ msg string }

func (e noSuchName) Error() string { return e.msg }

func (e noSuchName) Is(target error) bool { return target == ErrNoSuchName || target == ErrBadQuery }

// closestLimit is how many names a "no such name" message offers.
const closestLimit = 3

// ResolveSources turns source filters a person typed into the stored source
// names they name (NameMatches on the source's name or its chat title), in
// the order of Sources. A filter that names no source is an error wrapping
// ErrNoSuchName that offers the closest names.
func (m *Memory) ResolveSources(filters []string) ([]string, error) {
	if len(filters) == 0 {
		return nil, nil
	}
	infos, err := m.Sources()
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, f := range filters {
		found := false
		for _, si := range infos {
			if NameMatches(si.Name, f) || si.Title != "" && NameMatches(si.Title, f) {
				keep[si.Name], found = true, true
			}
		}
		if !found {
			var names []string
			for _, si := range infos {
				names = append(names, si.Name)
				if si.Title != "" {
					names = append(names, si.Title)
				}
			}
			return nil, noSuchName{fmt.Sprintf("no chat is called %q; closest: %s", f, quoteList(Closest(names, f, closestLimit)))}
		}
	}
	var out []string
	for _, si := range infos {
		if keep[si.Name] {
			out = append(out, si.Name)
		}
	}
	return out, nil
}

// Senders lists every sender of the memory's messages, sorted. It reads
// every message, so it is meant for a filter that matched nothing.
func (m *Memory) Senders() ([]string, error) {
	infos, err := m.Sources()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, si := range infos {
		msgs, err := m.st.Messages(si.Name)
		if err != nil {
			return nil, err
		}
		for _, msg := range msgs {
			seen[msg.Sender] = true
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}

// allSendersUpTo is how many senders a memory may have for a "no one
// called" message to offer every one of them (closest first) rather than
// the closest closestLimit: in a few chats the name wanted may be written
// in another script (haruka for 高橋 遥), which no spelling distance finds.
const allSendersUpTo = 8

// CheckSender returns an error wrapping ErrNoSuchName, offering the closest
// senders (all of them when there are at most allSendersUpTo; never
// chat.SystemSender, which stands for the chat's own notices, no person),
// when sender names no one who wrote in the memory; nil otherwise.
func (m *Memory) CheckSender(sender string) error {
	_, err := m.matchSenders(sender)
	return err
}

// matchSenders returns the senders of the memory that sender names
// (NameMatches), sorted; none is CheckSender's error.
func (m *Memory) matchSenders(sender string) ([]string, error) {
	all, err := m.Senders()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range all {
		if NameMatches(s, sender) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		people := slices.DeleteFunc(slices.Clone(all), func(s string) bool { return s == chat.SystemSender })
		limit := closestLimit
		if len(people) <= allSendersUpTo {
			limit = len(people)
		}
		return nil, noSuchName{fmt.Sprintf("no one called %q wrote in these chats; closest: %s", sender, quoteList(Closest(people, sender, limit)))}
	}
	return out, nil
}

// ResolveSender returns the one sender of the memory that name names
// (NameMatches: "kenj" names "Kenji"), the name to store and to quote as
// "you". No sender is CheckSender's error; two or more an error wrapping
// ErrNoSuchName that lists them.
func (m *Memory) ResolveSender(name string) (string, error) {
	found, err := m.matchSenders(name)
	if err != nil {
		return "", err
	}
	if len(found) > 1 {
		return "", noSuchName{fmt.Sprintf("%q names %d senders, %s; give more of the name", name, len(found), quoteList(found))}
	}
	return found[0], nil
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

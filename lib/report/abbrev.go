package report

import (
	"sort"
	"strings"
)

// Abbreviation is a short form used in LaTeX table cells for a long name,
// e.g. {Full: "embedding_text_bm25", Short: "E-BM25"}.
type Abbreviation struct {
	Full, Short string
}

// abbreviator replaces full names by short ones, longest full name first, and
// remembers which it used for the legend.
type abbreviator struct {
	list []Abbreviation
	used map[string]bool
}

func newAbbreviator(list []Abbreviation) *abbreviator {
	sorted := append([]Abbreviation(nil), list...)
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i].Full) > len(sorted[j].Full) })
	return &abbreviator{list: sorted, used: map[string]bool{}}
}

// peek returns s with every full name replaced, without recording use.
func (a *abbreviator) peek(s string) string {
	for _, ab := range a.list {
		s = strings.ReplaceAll(s, ab.Full, ab.Short)
	}
	return s
}

// apply is peek that records which abbreviations occurred.
func (a *abbreviator) apply(s string) string {
	for _, ab := range a.list {
		if strings.Contains(s, ab.Full) {
			a.used[ab.Full] = true
			s = strings.ReplaceAll(s, ab.Full, ab.Short)
		}
	}
	return s
}

// legend is the note that spells out the abbreviations used so far, sorted
// by short form ("" when none was used); it is escaped, never abbreviated.
func (a *abbreviator) legend() string {
	var parts []string
	for _, ab := range a.list {
		if a.used[ab.Full] {
			parts = append(parts, ab.Short+": "+ab.Full)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	sort.Strings(parts)
	return "Abbreviations: " + strings.Join(parts, "; ") + "."
}

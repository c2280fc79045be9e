package robustness

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxSeeds bounds how many seeds one range may name, so that a typo such as
// "1-2000000" is refused instead of queued.
const MaxSeeds = 1000

// SeedError reports a seed list that cannot be parsed: the whole list, the
// offending comma-separated item (1-based) and what was expected there.
type SeedError struct {
	Spec     string
	Item     int // 1-based position of the item in the comma-separated list; 0 for the list as a whole
	Text     string
	Expected string
}

func (e *SeedError) Error() string {
	if e.Item == 0 {
		return fmt.Sprintf("seeds %q: expected %s", e.Spec, e.Expected)
	}
	return fmt.Sprintf("seeds %q, item %d %q: expected %s", e.Spec, e.Item, e.Text, e.Expected)
}

// ParseSeeds parses a seed list: comma-separated items, each a seed N or an
// inclusive range A-B with A ≤ B, seeds being unsigned 64-bit integers
// ("1-20", "1,3,5-7", " 2 , 4 "). It returns the seeds ascending. An empty
// list or item, a non-number, a reversed range, a seed named twice or more
// than MaxSeeds seeds in all is a *SeedError naming the item.
func ParseSeeds(spec string) ([]uint64, error) {
	fail := func(item int, text, expected string, args ...any) ([]uint64, error) {
		return nil, &SeedError{Spec: spec, Item: item, Text: text, Expected: fmt.Sprintf(expected, args...)}
	}
	if strings.TrimSpace(spec) == "" {
		return fail(0, "", "a seed N, a range A-B, or a comma-separated list of them (e.g. 1-20)")
	}
	seen := map[uint64]int{}
	var seeds []uint64
	for i, raw := range strings.Split(spec, ",") {
		item := strings.TrimSpace(raw)
		if item == "" {
			return fail(i+1, item, "a seed or a range, not an empty item")
		}
		lo, hi := item, item
		if a, b, ok := strings.Cut(item, "-"); ok {
			lo, hi = strings.TrimSpace(a), strings.TrimSpace(b)
		}
		from, err := strconv.ParseUint(lo, 10, 64)
		if err != nil {
			return fail(i+1, item, "a non-negative integer seed, got %q", lo)
		}
		to, err := strconv.ParseUint(hi, 10, 64)
		if err != nil {
			return fail(i+1, item, "a non-negative integer seed after '-', got %q", hi)
		}
		if from > to {
			return fail(i+1, item, "a range A-B with A ≤ B")
		}
		if to-from >= MaxSeeds || len(seeds)+int(to-from)+1 > MaxSeeds {
			return fail(i+1, item, "at most %d seeds in all", MaxSeeds)
		}
		for s := from; ; s++ {
			if prev, dup := seen[s]; dup {
				return fail(i+1, item, "each seed once, but seed %d is also in item %d", s, prev)
			}
			seen[s] = i + 1
			seeds = append(seeds, s)
			if s == to {
				break
			}
		}
	}
	slices.Sort(seeds)
	return seeds, nil
}

// FormatSeeds writes ascending seeds compactly, runs of consecutive seeds as
// ranges: {1, 2, 3, 5} → "1-3,5". ParseSeeds(FormatSeeds(s)) returns s.
func FormatSeeds(seeds []uint64) string {
	var parts []string
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.FormatUint(seeds[i], 10))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", seeds[i], seeds[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

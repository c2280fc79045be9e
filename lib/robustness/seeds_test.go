package robustness_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/robustness"
)

func TestParseSeeds(t *testing.T) {
	tests := []struct {
		spec string
		want []uint64
	}{
		{"1", []uint64{1}},
		{"0", []uint64{0}},
		{"1-5", []uint64{1, 2, 3, 4, 5}},
		{"3-3", []uint64{3}},
		{"7,1-3, 5 ", []uint64{1, 2, 3, 5, 7}},
		{" 2 - 4 ", []uint64{2, 3, 4}},
		{"18446744073709551614-18446744073709551615", []uint64{1<<64 - 2, 1<<64 - 1}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := robustness.ParseSeeds(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ParseSeeds(%q) = %v, want %v", tt.spec, got, tt.want)
			}
			if back, err := robustness.ParseSeeds(robustness.FormatSeeds(got)); err != nil || !slices.Equal(back, got) {
				t.Errorf("ParseSeeds(FormatSeeds(%v)) = %v, %v", got, back, err)
			}
		})
	}
}

func TestParseSeedsBadInput(t *testing.T) {
	tests := []struct {
		name, spec string
		item       int
		expected   string // a fragment of the expectation
	}{
		{"empty", "", 0, "a seed N, a range A-B"},
		{"blank", "  ", 0, "a seed N, a range A-B"},
		{"empty item", "1,,3", 2, "not an empty item"},
		{"trailing comma", "1-3,", 2, "not an empty item"},
		{"word", "1,two", 2, `non-negative integer seed, got "two"`},
		{"negative", "-1", 1, `non-negative integer seed, got ""`},
		{"open range", "5-", 1, `after '-', got ""`},
		{"double dash", "1-2-3", 1, `after '-', got "2-3"`},
		{"reversed", "20-1", 1, "A ≤ B"},
		{"duplicate", "1-5,3", 2, "seed 3 is also in item 1"},
		{"too many", "1-5000", 1, fmt.Sprintf("at most %d seeds", robustness.MaxSeeds)},
		{"too many in all", "1-600,1001-1600", 2, fmt.Sprintf("at most %d seeds", robustness.MaxSeeds)},
		{"overflow", "18446744073709551616", 1, "non-negative integer seed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := robustness.ParseSeeds(tt.spec)
			var se *robustness.SeedError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSeeds(%q) = %v, %v; want a *SeedError", tt.spec, got, err)
			}
			if se.Item != tt.item || !strings.Contains(se.Expected, tt.expected) {
				t.Errorf("ParseSeeds(%q): item %d, expected %q; want item %d and %q", tt.spec, se.Item, se.Expected, tt.item, tt.expected)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.spec)) {
				t.Errorf("error %q does not quote the list %q", err, tt.spec)
			}
		})
	}
}

func ExampleParseSeeds() {
	seeds, err := robustness.ParseSeeds("4,1-3")
	fmt.Println(seeds, err)
	_, err = robustness.ParseSeeds("1-3,x")
	fmt.Println(err)
	// Output:
	// [1 2 3 4] <nil>
	// seeds "1-3,x", item 2 "x": expected a non-negative integer seed, got "x"
}

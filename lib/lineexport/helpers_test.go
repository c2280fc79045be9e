package lineexport_test

import (
	"slices"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

func equalInts(a, b []int) bool { return slices.Equal(a, b) }

package inputerr_test

import (
	"testing"

	"github.com/linemem/linemem/lib/inputerr"
)

func TestInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		name string
		data string
		want int
	}{
		{"empty", "", -1},
		{"valid", "あいう\nabc", -1},
		{"first byte", "\xffabc", 0},
		{"after a three-byte rune", "あ\xff", len("あ")},
		{"truncated rune at the end", "ab\xe3\x81", 2},
		{"second line", "a\nb\xc0\xaf", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := inputerr.InvalidUTF8([]byte(c.data)); got != c.want {
				t.Errorf("InvalidUTF8(%q) = %d, want %d", c.data, got, c.want)
			}
		})
	}
}

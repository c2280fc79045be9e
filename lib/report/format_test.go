package report_test

import (
	"math"
	"testing"

	"github.com/linemem/linemem/lib/report"
)

func TestNumberFormats(t *testing.T) {
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"F3 rounds", report.F3(0.42655), "0.427"},
		{"F3 rounds the stored binary value", report.F3(0.4265), "0.426"}, // 0.4265 is stored as 0.42649999999999999…
		{"F3 exact half", report.F3(0.0625), "0.062"},                     // 0.0625 is exact; ties go to even
		{"F3 pads", report.F3(0.5), "0.500"},
		{"F3 negative", report.F3(-0.0126), "-0.013"},
		{"F3 negative zero", report.F3(-0.0004), "0.000"},
		{"F3 NaN", report.F3(math.NaN()), "NaN"},
		{"CI3", report.CI3(0.335, 0.52), "[0.335, 0.520]"},
		{"CI3 negative lower", report.CI3(-0.013, 0.115), "[-0.013, 0.115]"},
		{"Signed3 positive", report.Signed3(0.113), "+0.113"},
		{"Signed3 negative", report.Signed3(-0.013), "-0.013"},
		{"Signed3 zero", report.Signed3(0), "0.000"},
		{"Signed3 rounds to zero", report.Signed3(-0.0002), "0.000"},
		{"Signed3 +Inf", report.Signed3(math.Inf(1)), "+Inf"},
		{"Signed3 NaN", report.Signed3(math.NaN()), "NaN"},
		{"Percent1 6/34", report.Percent1(6.0 / 34), "17.6%"},
		{"Percent1 8/17", report.Percent1(8.0 / 17), "47.1%"},
		{"Percent1 whole", report.Percent1(0.22), "22.0%"},
		{"Percent1 one", report.Percent1(1), "100.0%"},
		{"Percent1 NaN", report.Percent1(math.NaN()), "NaN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		})
	}
}

package store

import (
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// vectorLines are lines scanVectorLine must read exactly as encoding/json
// does or leave to it.
var vectorLines = []string{
	`{"key":"c1","vector":[1,2.5,-0.125]}`,
	`{ "key" : "c1" , "vector" : [ 1e-3 , -0 , 0.1 ] }`,
	`{"vector":[0.3],"key":"会話"}`,
	`{"key":"c1","vector":[1],"extra":true}`,
	`{"key":"c1","Key":"c2","vector":[1]}`,
	`{"KEY":"c1","vector":[1]}`,
	`{"key":"c1","vector":[1],"key":"c2"}`,
	`{"key":"a\"b","vector":[1]}`,
	`{"key":"a\u00e9","vector":[1]}`,
	"{\"key\":\"a\tb\",\"vector\":[1]}",
	"{\"vector\":[0],\"key\":\"\xb1\"}",
	"{\"key\":\"c\xe3\x81\",\"vector\":[1]}",
	`{"key":"c1","vector":[]}`,
	`{"key":"c1","vector":null}`,
	`{"key":"c1","vector":[1,null]}`,
	`{"key":"c1","vector":["1"]}`,
	`{"key":"c1","vector":[+1]}`,
	`{"key":"c1","vector":[.5]}`,
	`{"key":"c1","vector":[1.]}`,
	`{"key":"c1","vector":[01]}`,
	`{"key":"c1","vector":[1e]}`,
	`{"key":"c1","vector":[1-2]}`,
	`{"key":"c1","vector":[NaN]}`,
	`{"key":"c1","vector":[inf]}`,
	`{"key":"c1","vector":[1e39]}`,
	`{"key":"c1","vector":[-3.5e38]}`,
	`{"key":"c1","vector":[1e-50]}`,
	`{"key":"c1","vector":[1,2,]}`,
	`{"key":"c1","vector":[1,2]} x`,
	`{"key":1,"vector":[1]}`,
	`{"key":"c1"}`,
	`[1,2]`,
	`{"key":"c1","vector":[0.33333334326744079589843750000000000001]}`,
	`{"key":"c1","vector":[-0.02048,0.012345678,-0.0123456789,0.12345678,-0.012345678901234567,0.0012345678901234567,0.30000000000000004,0.00012345678901234567,0.0,-0.0000000,1.5,0.5,0.25]}`,
	`{"key":"c1","vector":[0.9999999999999999999,0.9223372036854775808,0.1e5,0.12345678e-3,0.1234567890123456789e2,0.5,0.25,0.125,0.0625]}`,
	`{"key":"c1","vector":[0.1,0.,0.5,0.25,0.125,0.0625,0.03125,0.015625,0.0078125]}`,
	`{"key":"c1","vector":[0.1,-0.-1,0.5,0.25,0.125,0.0625,0.03125,0.015625,0.0078125]}`,
	`{"key":"c1","vector":[0.1 ,0.2, 0.3,0.12345678901234567890,0.5,0.25,0.125,0.0625,0.03125,0.015625]}`,
}

// TestScanVectorLineAgreesWithEncodingJSON checks that whenever the fast path
// accepts a line, encoding/json accepts it too with the same key and the
// same bits.
func TestScanVectorLineAgreesWithEncodingJSON(t *testing.T) {
	var accepted int
	for _, line := range vectorLines {
		if checkVectorLine(t, line) {
			accepted++
		}
	}
	if accepted < 4 {
		t.Errorf("the scanner took %d of the lines; expected it to take at least the 4 plain ones", accepted)
	}
}

func FuzzScanVectorLine(f *testing.F) {
	for _, line := range vectorLines {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) { checkVectorLine(t, line) })
}

func checkVectorLine(t *testing.T, line string) (fast bool) {
	t.Helper()
	if !utf8.ValidString(line) {
		return false // lines reach the scanner checked as UTF-8
	}
	key, vec, ok := scanVectorLine([]byte(line), nil)
	if !ok {
		return false
	}
	wantKey, wantVec, err := decodeVectorLine([]byte(line))
	if err != nil {
		t.Fatalf("%s: scanner accepted a line encoding/json refuses: %v", line, err)
	}
	if key != wantKey || !slices.Equal(bitsOf(vec), bitsOf(wantVec)) {
		t.Fatalf("%s: scanner read %q %v, encoding/json %q %v", strings.TrimSpace(line), key, vec, wantKey, wantVec)
	}
	return true
}

func bitsOf(v []float32) []uint32 {
	out := make([]uint32, len(v))
	for i, x := range v {
		out[i] = math.Float32bits(x)
	}
	return out
}

// jsonNumber is JSON's number grammar (RFC 8259 §6).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// numberCases are numbers at the edges of parseNumber's paths: runs of
// digits across the 8-byte blocks, 17 to 20 significant digits, leading
// zeros after the point, exponents at float32's limits, and decimals at or
// next to a float32 midpoint (16777217 = 2²⁴ + 1 lies halfway between two
// float32s, as does (2²⁴ + 1)·2⁻ᵏ).
var numberCases = []string{
	"0", "-0", "0.0", "-0.0", "0e5", "-0E-5", "0e99999999999999999999", "0.000000000000000000000000000",
	"1", "9", "12345678", "123456789", "1234567812345678", "12345678123456781",
	"0.1", "0.1234567", "0.12345678", "0.123456789", "0.1234567812345678", "0.12345678123456781",
	"-0.02048", "-0.012345678", "1.2345678e-05", "-0.0123456789", "-0.012345678901234567",
	"0.30000000000000004", "0.1000000000000000055511151231257827",
	"1234567890123456789", "9223372036854775807", "9223372036854775808", "9999999999999999999",
	"12345678901234567890", "18446744073709551616", "18446744073709551616e-20",
	"0.00000000000000000000000000000001234", "0.000000000000000000000000000000000000000000001",
	"3.4028234663852886e38", "3.4028235e38", "3.4028235677973366e38", "3.4028235677973367e38",
	"3.40282356779733661637539395458142568448e38", "1e38", "1e39", "-1e39", "1E+38",
	"1.1754943508222875e-38", "1.1754942e-38", "1.4e-45", "7e-46", "7.1e-46", "1e-46", "1e-50",
	"1e0", "1e-0", "1e+0", "1e00000000000000000001", "1e-64", "1e-65", "1e-57", "123e-64",
	"16777216", "16777217", "16777218", "16777219", "33554434", "33554438",
	"16777217.0000000001", "16777216.9999999999", "16777217.000000000000000000001",
	"8388608.5", "8388609.5", "1048576.0625", "16384.0009765625", "1.000000059604644775390625",
	"1.0000000596046448", "1.0000000596046447",
	"0.0000000", "0.00000000", "0.000000000000000", "0.0000000000000000001", "0.1000000000000000000",
	"0.12345678901234567", "0.123456789012345678", "0.1234567890123456789", "0.12345678901234567890",
	"0.9999999999999999999", "0.9223372036854775807", "0.9223372036854775808", "-0.00012345678901234567",
	"0.5e1", "0.5E-1", "-0.0000000001e10",
	// Not JSON numbers.
	"01", "-", "--1", "0.", "-0.", "0.e1", "0.-1", "0.0.1", "-0.1-", "0.1e", "0.12345678e",
	"0.1234567812345678e", "+1", ".5", "1.", "1.e5", "1e", "1e+", "-.5", "0x10", "1_0", "Inf", "NaN", "1 ",
}

// TestParseNumberAgreesWithStrconv checks parseNumber and the array reader
// (fractions, then parseNumber) against strconv.ParseFloat(s, 32) on
// numberCases and on seeded random numbers of every shape; see checkNumber.
func TestParseNumberAgreesWithStrconv(t *testing.T) {
	for _, s := range numberCases {
		checkNumber(t, s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		for _, s := range randomNumbers(rng) {
			checkNumber(t, s)
		}
	}
}

// randomNumbers returns numbers drawn from rng: the shortest and other forms
// of a random float32 and float64, decimals within a few float64 ulp of a
// float32 midpoint, and random strings of digits with a point and an
// exponent.
func randomNumbers(rng *rand.Rand) []string {
	f := math.Float32frombits(rng.Uint32())
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		f = 1
	}
	z := rng.NormFloat64() * 0.0255
	out := []string{
		strconv.FormatFloat(float64(f), 'g', -1, 32),
		strconv.FormatFloat(float64(f), 'e', rng.IntN(20), 32),
		strconv.FormatFloat(float64(float32(z)), 'g', -1, 32),
		strconv.FormatFloat(z, 'g', -1, 64),
		strconv.FormatFloat(z, 'f', rng.IntN(25), 64),
		strconv.FormatFloat(z*math.Pow(10, float64(rng.IntN(80)-40)), 'g', -1, 64),
	}
	// A float32 midpoint, exact in float64, moved by a few float64 ulp.
	g := float32(math.Abs(z))
	mid := (float64(g) + float64(math.Nextafter32(g, 1))) / 2
	d := math.Float64frombits(math.Float64bits(mid) + uint64(rng.IntN(41)) - 20)
	out = append(out,
		strconv.FormatFloat(d, 'g', -1, 64),
		strconv.FormatFloat(d, 'e', 18, 64),
		strconv.FormatFloat(mid, 'e', 10+rng.IntN(10), 64))
	// Digits around the point and the 8-byte blocks.
	var b []byte
	if rng.IntN(2) == 0 {
		b = append(b, '-')
	}
	if n := rng.IntN(22); n == 0 {
		b = append(b, '0')
	} else {
		b = append(b, byte('1'+rng.IntN(9)))
		b = appendRandomDigits(b, rng, n-1)
	}
	if rng.IntN(4) > 0 {
		b = append(b, '.')
		b = append(b, strings.Repeat("0", rng.IntN(4)*rng.IntN(12))...)
		b = appendRandomDigits(b, rng, 1+rng.IntN(24))
	}
	if rng.IntN(3) == 0 {
		b = append(b, "eE"[rng.IntN(2)])
		b = append(b, []string{"", "+", "-"}[rng.IntN(3)]...)
		b = strconv.AppendInt(b, int64(rng.IntN(70)), 10)
	}
	return append(out, string(b))
}

func appendRandomDigits(b []byte, rng *rand.Rand, n int) []byte {
	for range n {
		b = append(b, byte('0'+rng.IntN(10)))
	}
	return b
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range numberCases {
		f.Add(s)
	}
	f.Fuzz(checkNumber)
}

// checkNumber checks that parseNumber reads s, alone and followed by the rest
// of a line, to strconv.ParseFloat(s, 32)'s bits when s is a JSON number
// within float32's range, and refuses it (or stops before its end) otherwise;
// and that an array of s and more numbers, long enough for fractions, reads
// s the same way or is refused.
func checkNumber(t *testing.T, s string) {
	t.Helper()
	want, err := strconv.ParseFloat(s, 32)
	valid := jsonNumber.MatchString(s)
	for _, line := range []string{s, s + `,0.5,1]}`} {
		f, n, ok := parseNumber([]byte(line), 0)
		if !valid {
			if ok && n >= len(s) {
				t.Fatalf("%q: read %v from what is not a JSON number", line, f)
			}
			continue
		}
		switch {
		case err != nil && ok:
			t.Fatalf("%q: read %v, strconv refuses it: %v", line, f, err)
		case err == nil && (!ok || n != len(s)):
			t.Fatalf("%q: refused (ok %v, %d bytes), strconv reads %v", line, ok, n, want)
		case err == nil && math.Float32bits(f) != math.Float32bits(float32(want)):
			t.Fatalf("%q: read %v (%#08x), strconv %v (%#08x)", line, f, math.Float32bits(f), want, math.Float32bits(float32(want)))
		}
	}
	if strings.ContainsAny(s, " \t\r\n,[]") {
		return // s would not be one element of the array
	}
	for _, rest := range arrayTails {
		array := "[" + s + rest
		s := lineScanner{b: []byte(array)}
		vec, ok := s.numbers(nil)
		switch {
		case (!valid || err != nil) && ok:
			t.Fatalf("%s: read %v, want it refused", array, vec)
		case valid && err == nil && !ok:
			t.Fatalf("%s: refused, strconv reads %v", array, want)
		case ok && math.Float32bits(vec[0]) != math.Float32bits(float32(want)):
			t.Fatalf("%s: read %v (%#08x), strconv %v (%#08x)", array, vec[0], math.Float32bits(vec[0]), want, math.Float32bits(float32(want)))
		}
	}
}

// arrayTails end an array after its first element: directly, after one more
// element, and after enough elements that fractions reads the first.
var arrayTails = []string{"]", ",-0.5]", ",0.25,-0.125,0.0625,-0.03125,0.015625,0.0078125]"}

package store

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"unsafe"
)

// scanVectorLine reads the common vectors JSONL line — an object of exactly
// the two fields "key" (a string without escapes or control characters) and
// "vector" (a non-empty array of JSON numbers within float32's range), in
// either order, with JSON white space anywhere between tokens — in one pass,
// appending the elements to vec[:0]. ok is false for any other line, which
// then goes to the encoding/json path: this scanner never accepts what that
// path would refuse or read differently, and converts each element to the
// same float32 as strconv.ParseFloat(s, 32).
func scanVectorLine(data []byte, vec []float32) (key string, out []float32, ok bool) {
	s := lineScanner{b: data}
	var haveKey, haveVec bool
	ok = s.twoFields(func(name string) bool {
		switch {
		case name == "key" && !haveKey:
			k, ok := s.str()
			key, haveKey = string([]byte(k)), ok
			return ok
		case name == "vector" && !haveVec:
			out, haveVec = s.numbers(vec[:0])
			return haveVec
		}
		return false
	})
	if !ok {
		return "", nil, false
	}
	return key, out, true
}

// lineScanner reads the common shapes of JSONL lines in one pass
// (scanVectorLine, scanSummaryLine): b is the line, i the position read to.
type lineScanner struct {
	b []byte
	i int
}

func (s *lineScanner) ws() {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
}

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool {
	return c <= ' ' && (c == ' ' || c == '\t' || c == '\r' || c == '\n')
}

// twoFields reads an object of exactly two fields, then only white space to
// the end of the line. For each field name it calls field with the scanner
// at the field's value; field reads the value and returns false to refuse
// the line (an unknown or repeated name, a value of another shape).
func (s *lineScanner) twoFields(field func(name string) bool) bool {
	if !s.byte('{') {
		return false
	}
	for i := range 2 {
		if i == 1 && !s.byte(',') {
			return false
		}
		name, ok := s.str()
		if !ok || !s.byte(':') || !field(name) {
			return false
		}
	}
	if !s.byte('}') {
		return false
	}
	s.ws()
	return s.i == len(s.b)
}

// byte skips white space and then c.
func (s *lineScanner) byte(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes or control characters; the result
// aliases the line. Lines reach the scanner checked as valid UTF-8
// (parallelLines, jsonl.Lines), and a string between two ASCII quotes of a
// valid line is valid too, so the string is kept exactly (encoding/json
// would read invalid UTF-8 as U+FFFD).
func (s *lineScanner) str() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			b := s.b[start : s.i-1]
			return unsafe.String(unsafe.SliceData(b), len(b)), true
		case c == '\\' || c < 0x20:
			return "", false
		}
		s.i++
	}
	return "", false
}

// numbers reads a non-empty array of JSON numbers.
func (s *lineScanner) numbers(dst []float32) ([]float32, bool) {
	if !s.byte('[') {
		return nil, false
	}
	b, i := s.b, s.i
	for {
		dst, i = fractions(b, i, dst)
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		f, j, ok := parseNumber(b, i)
		if !ok {
			return nil, false
		}
		dst, i = append(dst, f), j
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		s.i = i
		if s.byte(',') {
			i = s.i
			continue
		}
		return dst, s.byte(']')
	}
}

// fractions appends the elements at b[i:] of the most common shape in an
// embedding, -?0\.[0-9]{1,19} directly followed by a comma, for as long as
// they come and at least 33 bytes remain in b, taking their digits 8 at a
// time without a branch on their sign or count below 8. It returns the
// index after the last comma it read; the element there, of any other shape,
// is parseNumber's. The digits make a mantissa m below 10¹⁹, and each result
// is float32(d) for d = fl(fl(m)·fl(10⁻ⁿ)) under parseNumber's midpoint rule
// (see midpointMargin); an element near a midpoint is left to parseNumber.
func fractions(b []byte, i int, dst []float32) ([]float32, int) {
	for len(b)-i >= 33 {
		neg := b2u(b[i] == '-')
		c := b[i+int(neg):][:32]
		if c[0] != '0' || c[1] != '.' {
			break
		}
		t1 := binary.LittleEndian.Uint64(c[2:]) - ascii0
		n := digitRun(t1)
		var mant uint64
		if n < 8 {
			mant = eightDigits(t1 << ((64 - 8*n) & 63))
		} else {
			t2 := binary.LittleEndian.Uint64(c[10:]) - ascii0
			n2 := digitRun(t2)
			if n2 < 8 {
				mant = eightDigits(t1)*uint64Pow10[n2&15] + eightDigits(t2<<((56-8*n2)&63)<<8)
				n += n2
			} else {
				t3 := binary.LittleEndian.Uint64(c[18:]) - ascii0
				n3 := digitRun(t3)
				if n3 > 3 {
					break
				}
				mant = (eightDigits(t1)*1e8+eightDigits(t2))*uint64Pow10[n3&15] + eightDigits(t3<<((56-8*n3)&63)<<8)
				n += 8 + n3
			}
		}
		if n == 0 || c[(2+n)&31] != ',' || int64(mant) < 0 {
			break
		}
		d := float64(int64(mant)) * negPow10[n&31]
		u := math.Float64bits(d)
		const float32Normal = 1023 - 126 // biased float64 exponent of 2⁻¹²⁶
		if u>>52-float32Normal >= 253 || u&(1<<29-1)-(1<<28-midpointMargin) <= 2*midpointMargin {
			break
		}
		dst = append(dst, math.Float32frombits(math.Float32bits(float32(d))|uint32(neg)<<31))
		i += int(neg) + 3 + n
	}
	return dst, i
}

// negPow10[n] is the float64 nearest to 10⁻ⁿ.
var negPow10 = func() (p [32]float64) {
	for n := range p {
		p[n] = pow10[-n-minPow10]
	}
	return p
}()

// b2u is 1 for true and 0 for false.
func b2u(c bool) uint64 {
	if c {
		return 1
	}
	return 0
}

// Bounds of the decimal exponents in pow10: a mantissa of 1 to 2⁶³ − 1
// scaled by 10^e reaches float32's normal range [2⁻¹²⁶, 2¹²⁸) only for e
// within [-64, 38].
const (
	minPow10 = -64
	maxPow10 = 38
)

// pow10[e-minPow10] is the float64 nearest to 10^e.
var pow10 = func() (p [maxPow10 - minPow10 + 1]float64) {
	for e := minPow10; e <= maxPow10; e++ {
		p[e-minPow10], _ = strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
	}
	return p
}()

// midpointMargin is how many float64 units in the last place (ulp) an
// estimate d of a decimal x must stay away from a float32 midpoint, that is
// from the low 29 bits of d's significand being exactly 1 << 28, for d and x
// to round to the same float32. d = fl(fl(m)·fl(10^e)) carries three
// roundings to nearest (fl(m) exact below 2⁵³, fl(10^e) exact for
// 0 ≤ e ≤ 22), so |d − x| ≤ ((1+2⁻⁵³)³ − 1)·|x| < 3.01·ulp(d). With d more
// than 3.01 ulp from every midpoint, no midpoint lies between d and x (the
// float32 spacing in d's binade is 2²⁹ ulp, and the midpoints next to a power
// of two lie 2²⁷ ulp or more from it), so float32(d), rounded once, is x
// correctly rounded. The margin of 8 leaves room to spare.
const midpointMargin = 8

// parseNumber reads the JSON number at b[i:] and returns its float32 and the
// index after it; ok is false when b[i:] does not start with a number or the
// number lies outside float32's range.
//
// A number of at most 19 significant digits m·10^e (leading zeros after the
// point do not count), m < 2⁶³, whose estimate d = fl(fl(m)·fl(10^e)) falls
// in [2⁻¹²⁶, 2¹²⁷) and more than midpointMargin ulp from a float32 midpoint,
// is float32(d): exactly strconv's result (see midpointMargin).
// Any other number — zero excepted, which is ±0 whatever its exponent — goes
// to strconv.ParseFloat; about one in 2²⁵ numbers does so for being near a
// midpoint.
func parseNumber(b []byte, i int) (float32, int, bool) {
	start := i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	if i >= len(b) {
		return 0, i, false
	}
	var mant uint64
	var digits int
	switch c := b[i]; {
	case c == '0':
		i++
	case c-'1' < 9:
		i, mant, digits = appendDigits(b, i, 0)
	default:
		return 0, i, false
	}
	exp := 0
	if i < len(b) && b[i] == '.' {
		i++
		frac := i
		i, mant, _ = appendDigits(b, i, mant)
		if i == frac {
			return 0, i, false
		}
		digits += i - frac
		exp = frac - i
		if digits > 19 && mant != 0 && b[start+int(b2u(neg))] == '0' {
			// Zeros between the point and the first non-zero digit add
			// nothing to mant.
			for j := frac; b[j] == '0'; j++ {
				digits--
			}
		}
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		expNeg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			expNeg = b[i] == '-'
			i++
		}
		first := i
		e := 0
		for ; i < len(b) && b[i]-'0' < 10; i++ {
			if e < 1e4 {
				e = e*10 + int(b[i]-'0')
			}
		}
		if i == first {
			return 0, i, false
		}
		if expNeg {
			e = -e
		}
		exp += e
	}
	if digits <= 19 {
		if mant == 0 {
			if neg {
				return math.Float32frombits(1 << 31), i, true
			}
			return 0, i, true
		}
		if mant < 1<<63 && exp >= minPow10 && exp <= maxPow10 {
			d := float64(int64(mant)) * pow10[exp-minPow10]
			u := math.Float64bits(d)
			const float32Normal = 1023 - 126 // biased float64 exponent of 2⁻¹²⁶
			low := u & (1<<29 - 1)
			if u>>52-float32Normal < 253 && low-(1<<28-midpointMargin) > 2*midpointMargin {
				f := float32(d)
				if neg {
					f = -f
				}
				return f, i, true
			}
		}
	}
	raw := b[start:i]
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(raw), len(raw)), 32)
	if err != nil {
		return 0, i, false
	}
	return float32(f), i, true
}

// appendDigits reads the run of ASCII digits at b[i:] onto mant (mant·10ⁿ +
// the run's value, modulo 2⁶⁴) and returns the index after the run and its
// length n. It takes 8 bytes at a time while 8 remain in b.
func appendDigits(b []byte, i int, mant uint64) (int, uint64, int) {
	start := i
	for i+8 <= len(b) {
		t := binary.LittleEndian.Uint64(b[i:]) - ascii0
		n := digitRun(t)
		if n == 8 {
			mant = mant*1e8 + eightDigits(t)
			i += 8
			continue
		}
		mant = mant*uint64Pow10[n&15] + eightDigits(t<<((56-8*n)&63)<<8)
		i += n
		return i, mant, i - start
	}
	for ; i < len(b) && b[i]-'0' < 10; i++ {
		mant = mant*10 + uint64(b[i]-'0')
	}
	return i, mant, i - start
}

// ascii0 is '0' in each byte: w − ascii0 turns 8 ASCII digits, the first in
// the low byte, into their values.
const ascii0 = 0x3030303030303030

var uint64Pow10 = [16]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// digitRun returns how many of the 8 bytes of t = w − ascii0, for bytes w
// read little-endian, come from ASCII digits before the first that does not.
// Below the first non-digit no byte borrows, so each byte there is its digit's
// value v, and the first non-digit has v ≥ 10 (v ≥ 0x80 when it wrapped):
// bit 7 of v + 0x76 or of v is set exactly there. Bytes above it may be
// garbage, which does not matter.
func digitRun(t uint64) int {
	y := (t + 0x7676767676767676 | t) & 0x8080808080808080
	return bits.TrailingZeros64(y) >> 3
}

// eightDigits returns the value of the 8 decimal digits whose values are the
// bytes of t, the first (most significant) in the low byte; a zero byte
// counts as digit 0. Pairs, then quadruples, then the octet are combined by
// multiply-shift steps (10·a + b, 100·a + b, 10⁴·a + b) as in fast_float.
func eightDigits(t uint64) uint64 {
	t = t * (10<<8 + 1) >> 8
	t = (t & 0x00ff00ff00ff00ff) * (100<<16 + 1) >> 16
	return uint64(uint32((t & 0x0000ffff0000ffff) * (10000<<32 + 1) >> 32))
}

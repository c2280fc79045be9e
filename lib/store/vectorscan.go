package store

import (
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
	s := vectorScanner{b: data}
	if !s.byte('{') {
		return "", nil, false
	}
	var haveKey, haveVec bool
	for field := 0; field < 2; field++ {
		if field == 1 && !s.byte(',') {
			return "", nil, false
		}
		name, ok := s.str()
		if !ok || !s.byte(':') {
			return "", nil, false
		}
		switch {
		case name == "key" && !haveKey:
			if key, ok = s.str(); !ok {
				return "", nil, false
			}
			key, haveKey = string([]byte(key)), true
		case name == "vector" && !haveVec:
			if out, ok = s.numbers(vec[:0]); !ok {
				return "", nil, false
			}
			haveVec = true
		default:
			return "", nil, false
		}
	}
	if !s.byte('}') {
		return "", nil, false
	}
	s.ws()
	return key, out, s.i == len(s.b)
}

type vectorScanner struct {
	b []byte
	i int
}

func (s *vectorScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// byte skips white space and then c.
func (s *vectorScanner) byte(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes or control characters; the result
// aliases the line.
func (s *vectorScanner) str() (string, bool) {
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
func (s *vectorScanner) numbers(dst []float32) ([]float32, bool) {
	if !s.byte('[') {
		return nil, false
	}
	for {
		s.ws()
		f, ok := s.number()
		if !ok {
			return nil, false
		}
		dst = append(dst, f)
		if s.byte(',') {
			continue
		}
		return dst, s.byte(']')
	}
}

// float32Pow10 are the powers of ten that float32 holds exactly.
var float32Pow10 = [...]float32{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

// number reads one number in JSON's grammar (RFC 8259 §6,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?) as the float32 nearest to
// it. A mantissa of at most 24 bits scaled by at most 10^±10 is converted
// exactly as strconv does it (one correctly rounded float32 multiplication or
// division of exact operands); any other number goes to strconv.ParseFloat.
func (s *vectorScanner) number() (float32, bool) {
	b, start := s.b, s.i
	i := s.i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	var mant uint64
	digits, exp := 0, 0
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			mant = mant*10 + uint64(b[i]-'0')
			digits++
		}
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		frac := i
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if mant != 0 || b[i] != '0' {
				digits++
			}
			mant = mant*10 + uint64(b[i]-'0')
			exp--
		}
		if i == frac {
			return 0, false
		}
	}
	simple := true
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		simple = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		e := i
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
		if i == e {
			return 0, false
		}
	}
	s.i = i
	if simple && digits <= 19 && mant < 1<<24 && exp >= -10 {
		f := float32(mant)
		if neg {
			f = -f
		}
		return f / float32Pow10[-exp], true
	}
	raw := b[start:i]
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(raw), len(raw)), 32)
	if err != nil {
		return 0, false
	}
	return float32(f), true
}

package store

import (
	"math"
	"slices"
	"strings"
	"testing"
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

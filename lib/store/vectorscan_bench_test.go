package store

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// vectorForms are the ways vectors JSONL files write their elements, each a
// function of one standard normal draw z scaled to a 1,536-d unit vector
// (z/√1536 ≈ z·0.0255).
var vectorForms = []struct {
	name   string
	append func(b []byte, z float64) []byte
}{
	// 5 decimals, as scripts/benchvectors writes them: -0.02048.
	{"decimal5", func(b []byte, z float64) []byte {
		return strconv.AppendFloat(b, float64(int(z*2550))/1e5, 'g', -1, 64)
	}},
	// The shortest form of a float32: -0.012345678, 1.2345678e-05.
	{"float32", func(b []byte, z float64) []byte {
		return strconv.AppendFloat(b, float64(float32(z*0.0255)), 'g', -1, 32)
	}},
	// The shortest form of a float64, up to 17 significant digits, as
	// Python's json module writes an embedding: -0.012345678901234567.
	{"float64", func(b []byte, z float64) []byte {
		return strconv.AppendFloat(b, z*0.0255, 'g', -1, 64)
	}},
}

// vectorLine is one 1,536-d vectors JSONL line whose elements are written by
// appendElem, the size of a line of the paper's JSON vector cache (about
// 12 KB with 5 decimals).
func vectorLine(rng *rand.Rand, appendElem func([]byte, float64) []byte) []byte {
	b := []byte(`{"key":"c0123456789abcdef","vector":[`)
	for i := range 1536 {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendElem(b, rng.NormFloat64())
	}
	return append(b, "]}"...)
}

// BenchmarkVectorLine compares the two decoders of a vectors JSONL line:
// scanVectorLine (the common line in one pass) and encoding/json with a
// per-element UnmarshalJSON (every other line, and the error messages), for
// each element form.
func BenchmarkVectorLine(b *testing.B) {
	for _, form := range vectorForms {
		line := vectorLine(rand.New(rand.NewPCG(1, 2)), form.append)
		b.Run("scanner/"+form.name, func(b *testing.B) {
			var vec []float32
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				var ok bool
				if _, vec, ok = scanVectorLine(line, vec); !ok {
					b.Fatal("scanner refused the line")
				}
			}
		})
		b.Run("encoding-json/"+form.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if _, _, err := decodeVectorLine(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package store

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// vectorLine is one 1,536-d vectors JSONL line with 5-decimal elements, the
// size of a line of the paper's JSON vector cache (about 12 KB).
func vectorLine(rng *rand.Rand) []byte {
	b := []byte(`{"key":"c0123456789abcdef","vector":[`)
	for i := range 1536 {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, float64(int(rng.NormFloat64()*2550))/1e5, 'g', -1, 64)
	}
	return append(b, "]}"...)
}

// BenchmarkVectorLine compares the two decoders of a vectors JSONL line:
// scanVectorLine (the common line in one pass) and encoding/json with a
// per-element UnmarshalJSON (every other line, and the error messages).
func BenchmarkVectorLine(b *testing.B) {
	line := vectorLine(rand.New(rand.NewPCG(1, 2)))
	b.Run("scanner", func(b *testing.B) {
		var vec []float32
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			var ok bool
			if _, vec, ok = scanVectorLine(line, vec); !ok {
				b.Fatal("scanner refused the line")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if _, _, err := decodeVectorLine(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}

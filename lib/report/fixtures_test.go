package report_test

import (
	"math"
	"math/rand/v2"

	"github.com/linemem/linemem/lib/report"
)

// The figure fixtures use the paper's published numbers where it prints
// them (Tables 3, 5 and 6) and seeded synthetic curves elsewhere.

func singleRetrievers() []report.LabeledCI {
	return []report.LabeledCI{
		{Label: "raw_text_bm25", Value: 0.427, Lo: 0.335, Hi: 0.520},
		{Label: "summary_bm25", Value: 0.463, Lo: 0.374, Hi: 0.555},
		{Label: "summary_vector", Value: 0.541, Lo: 0.451, Hi: 0.631},
		{Label: "embedding_text_vector", Value: 0.549, Lo: 0.458, Hi: 0.640},
		{Label: "embedding_text_bm25", Value: 0.584, Lo: 0.491, Hi: 0.673},
	}
}

func byType() []report.LabeledCI {
	return []report.LabeledCI{
		{Label: "overall", Value: 0.697, Lo: 0.610, Hi: 0.775},
		{Label: "named_entity", Value: 0.789, Lo: 0.647, Hi: 0.912},
		{Label: "contextual", Value: 0.755, Lo: 0.643, Hi: 0.857},
		{Label: "aggregate", Value: 0.345, Lo: 0.159, Hi: 0.551},
	}
}

func differences() []report.LabeledCI {
	return []report.LabeledCI{
		{Label: "Best - E-BM25", Value: 0.113, Lo: 0.048, Hi: 0.184},
		{Label: "Best - S-hybrid (β = 0.50)", Value: 0.050, Lo: -0.013, Hi: 0.115},
	}
}

// betaSeries returns six synthetic curves over β = 0, 0.05, …, 1 that peak
// near the β and height of the paper's Table 4, with seeded noise.
func betaSeries() []report.Series {
	pairings := []struct {
		label      string
		peak, best float64
	}{
		{"E-BM25 + E-Vec", 0.45, 0.697},
		{"E-BM25 + S-Vec", 0.55, 0.677},
		{"R-BM25 + E-Vec", 0.45, 0.657},
		{"S-BM25 + S-Vec", 0.50, 0.647},
		{"S-BM25 + E-Vec", 0.40, 0.641},
		{"R-BM25 + S-Vec", 0.35, 0.639},
	}
	rng := rand.New(rand.NewPCG(12345, 5))
	var out []report.Series
	for _, pr := range pairings {
		s := report.Series{Label: pr.label}
		for i := 0; i <= 20; i++ {
			beta := float64(i) / 20
			y := pr.best - 0.6*math.Pow(beta-pr.peak, 2) - 0.01*rng.Float64()
			s.X = append(s.X, beta)
			s.Y = append(s.Y, math.Round(y*100)/100)
		}
		out = append(out, s)
	}
	return out
}

func topKSeries() []report.Series {
	return []report.Series{
		{Label: "named_entity", Y: []float64{0.735, 0.824, 0.882}},
		{Label: "contextual", Y: []float64{0.714, 0.796, 0.857}},
		{Label: "aggregate", Y: []float64{0.294, 0.412, 0.529}},
		{Label: "overall", Y: []float64{0.650, 0.740, 0.810}},
	}
}

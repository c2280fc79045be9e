package analysis

import (
	"errors"
	"fmt"
	"math"
)

// Config is one sweep configuration and its macro scores.
type Config struct {
	Name    string             // retriever name, e.g. "hybrid:summary_bm25+summary_vector@0.50"
	Pairing string             // e.g. "S-BM25+S-Vec"
	Beta    float64            // BM25 weight β
	Scores  map[string]float64 // metric name → macro mean
}

// Select returns the first configuration, in the given order, whose score
// for metric equals the maximum over configs (spec §10: with configs in
// pairing order then β ascending and metric "recall@5", this is the paper's
// selected hybrid). Equality is exact float64 equality; metrics.Mean rounds
// once, so equal multisets of per-question scores give equal means.
//
// An empty configs, a configuration without metric, or a NaN score is an
// error.
func Select(configs []Config, metric string) (Config, error) {
	if len(configs) == 0 {
		return Config{}, errors.New("analysis: no configurations to select from")
	}
	best := -1
	for i, c := range configs {
		s, ok := c.Scores[metric]
		if !ok {
			return Config{}, fmt.Errorf("analysis: configuration %q has no %s score", c.Name, metric)
		}
		if math.IsNaN(s) {
			return Config{}, fmt.Errorf("analysis: configuration %q has a NaN %s score", c.Name, metric)
		}
		if best < 0 || s > configs[best].Scores[metric] {
			best = i
		}
	}
	return configs[best], nil
}

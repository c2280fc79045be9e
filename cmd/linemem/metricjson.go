package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/metrics"
)

// metricObject is a JSON object in three parts: the fields of Head, one
// "name": mean field per metric of Metrics in that order, then the fields of
// Tail. Decoding fills Head and Tail and takes as Means every field whose
// name lib/metrics parses (Metrics stays nil: a map keeps no order).
type metricObject[H, T any] struct {
	Head    H
	Metrics []string           // metric names, in output order
	Means   map[string]float64 // metric name → mean
	Tail    T
}

func (o metricObject[H, T]) MarshalJSON() ([]byte, error) {
	head, err := jsonl.Marshal(o.Head)
	if err != nil {
		return nil, err
	}
	tail, err := jsonl.Marshal(o.Tail)
	if err != nil {
		return nil, err
	}
	var fields [][]byte
	if inner := head[1 : len(head)-1]; len(inner) > 0 {
		fields = append(fields, inner)
	}
	for _, m := range o.Metrics {
		v, ok := o.Means[m]
		if !ok {
			return nil, fmt.Errorf("metric %s: no mean", m)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("metric %s: mean %v is not a JSON number", m, v)
		}
		name, _ := jsonl.Marshal(m)
		value, _ := json.Marshal(v)
		fields = append(fields, append(append(name, ':'), value...))
	}
	if inner := tail[1 : len(tail)-1]; len(inner) > 0 {
		fields = append(fields, inner)
	}
	return append(append([]byte{'{'}, bytes.Join(fields, []byte{','})...), '}'), nil
}

func (o *metricObject[H, T]) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &o.Head); err != nil {
		return err
	}
	if err := json.Unmarshal(data, &o.Tail); err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	o.Means = map[string]float64{}
	for name, raw := range fields {
		if _, err := metrics.Parse(name); err != nil {
			continue
		}
		var v float64
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("metric %s: %w", name, err)
		}
		o.Means[name] = v
	}
	return nil
}

// noFields is the empty head or tail of a metricObject.
type noFields struct{}

// meansOf returns the means of names from means, for a metricObject.
func meansOf(names []string, means map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(names))
	for _, m := range names {
		out[m] = means[m]
	}
	return out
}

// meanOnly reports whether the text tables show metric m as a mean alone:
// eval without its interval, sweep not at all (their JSON has it in full).
// That is the success family, the share of questions with any gold chunk in
// the top k, which repeats Recall@k for questions with one gold chunk.
func meanOnly(m string) bool {
	parsed, err := metrics.Parse(m)
	return err == nil && parsed.Family == "success"
}

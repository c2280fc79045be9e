package retrieval

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/represent"
)

// Retrieval methods of a single retriever.
const (
	MethodBM25   = "bm25"
	MethodVector = "vector"
)

// Fusion kinds, the prefixes of fused retriever names.
const (
	FusionLinear = "hybrid" // min–max linear hybrid, spec §9
	FusionRRF    = "rrf"    // reciprocal rank fusion, K = 60
	FusionZScore = "zscore" // z-score linear hybrid
)

// Remedies for aggregate questions, the prefixes of reranked retriever names:
// each reorders the top fusion.Depth of a base retriever.
const (
	RemedyMMR    = "mmr"    // maximal marginal relevance over sources, lib/diversify; weight λ
	RemedyPeriod = "period" // fusion with source-month units, lib/hierarchy; weight γ
)

// Single names one representation searched by one method.
type Single struct {
	Rep    string // represent.RawText, represent.Summary or represent.EmbeddingTextRep
	Method string // MethodBM25 or MethodVector
}

// Name returns "{rep}_{method}", e.g. "summary_bm25".
func (s Single) Name() string { return s.Rep + "_" + s.Method }

// Short returns the label the paper's tables use, e.g. "S-BM25" for
// summary_bm25 and "E-Vec" for embedding_text_vector: the representation's
// initial in upper case, then "BM25" or "Vec".
func (s Single) Short() string {
	method := "BM25"
	if s.Method == MethodVector {
		method = "Vec"
	}
	return strings.ToUpper(s.Rep[:1]) + "-" + method
}

// Singles lists every single retriever: each representation in spec order,
// BM25 before vector.
func Singles() []Single {
	var out []Single
	for _, rep := range represent.Names {
		out = append(out, Single{rep, MethodBM25}, Single{rep, MethodVector})
	}
	return out
}

// Spec is a parsed retriever name: a single retriever when Fusion is "",
// else a fusion of a BM25 and a vector retriever; when Remedy is not "",
// that retriever is the base whose ranking the remedy reorders.
type Spec struct {
	Fusion string  // "", FusionLinear, FusionRRF or FusionZScore
	Single Single  // the retriever when Fusion is ""
	BM25   Single  // the sparse component of a fusion
	Vector Single  // the dense component of a fusion
	Beta   float64 // BM25 weight of FusionLinear and FusionZScore
	Remedy string  // "", RemedyMMR or RemedyPeriod
	Weight float64 // the remedy's weight: λ of RemedyMMR, γ of RemedyPeriod
	// Expander, when not "", names the query expander (lib/expand) of a
	// multi-query retriever over the base (see multi.go).
	Expander string
}

// Base returns the spec without its remedy: the retriever the remedy
// reorders (s itself when Remedy is "").
func (s Spec) Base() Spec {
	s.Remedy, s.Weight = "", 0
	return s
}

// String returns the canonical name (spec §9): "{rep}_{method}",
// "hybrid:{bm25}+{vector}@{β}", "rrf:{bm25}+{vector}" or
// "zscore:{bm25}+{vector}@{β}", β with two decimals; with a remedy,
// "{remedy}:{base}@{weight}", the weight with two decimals.
func (s Spec) String() string {
	if s.Remedy != "" {
		return s.Remedy + ":" + s.Base().String() + "@" + fusion.FormatBeta(s.Weight)
	}
	if s.Expander != "" {
		return multiName(s)
	}
	switch s.Fusion {
	case "":
		return s.Single.Name()
	case FusionRRF:
		return s.Fusion + ":" + s.BM25.Name() + "+" + s.Vector.Name()
	default:
		return s.Fusion + ":" + s.BM25.Name() + "+" + s.Vector.Name() + "@" + fusion.FormatBeta(s.Beta)
	}
}

// Fuser returns the fusion of a fused spec, nil for a single retriever.
func (s Spec) Fuser() fusion.Fuser {
	switch s.Fusion {
	case FusionLinear:
		return fusion.LinearMinMax{Beta: s.Beta}
	case FusionRRF:
		return fusion.RRF{K: 60}
	case FusionZScore:
		return fusion.ZScore{Beta: s.Beta}
	}
	return nil
}

// betaPattern is β as retriever names print it: two decimals in [0, 1].
var betaPattern = regexp.MustCompile(`^(0\.[0-9]{2}|1\.00)$`)

// ParseName parses a retriever name (see Spec.String). The grammar:
//
//	name    = inner | remedy ":" inner "@" weight
//	inner   = base | "multi:" expander ":" base
//	base    = single | ("hybrid" | "zscore") ":" bm25 "+" vector "@" β
//	        | "rrf:" bm25 "+" vector
//	single  = rep "_bm25" | rep "_vector"
//	remedy  = "mmr" | "period"
//	expander = "rm3" | "phrases" | "llm"   (lib/expand)
//
// The representation must be one of represent.Names; a fusion takes a BM25
// retriever first and a vector retriever second; β and the weight are written
// with two decimals, 0.00 to 1.00. A remedy wraps one base, never another
// remedy: "mmr:hybrid:summary_bm25+summary_vector@0.50@0.80" is MMR with λ =
// 0.80 over that hybrid; "period:embedding_text_bm25@0.20" fuses BM25 over
// embedding_text with source-month units at γ = 0.20. Errors quote the name
// and say what was expected.
func ParseName(name string) (Spec, error) {
	kind, rest, fused := strings.Cut(name, ":")
	if fused && (kind == RemedyMMR || kind == RemedyPeriod) {
		return parseRemedy(name, kind, rest)
	}
	if fused && kind == Multi {
		return parseMulti(name, rest)
	}
	return parseBase(name, kind, rest, fused)
}

// ParseNames parses each name with ParseName, in order; the first error is
// returned.
func ParseNames(names []string) ([]Spec, error) {
	specs := make([]Spec, len(names))
	for i, n := range names {
		s, err := ParseName(n)
		if err != nil {
			return nil, err
		}
		specs[i] = s
	}
	return specs, nil
}

func parseRemedy(name, kind, rest string) (Spec, error) {
	i := strings.LastIndex(rest, "@")
	if i < 0 {
		return Spec{}, fmt.Errorf("retriever %q: expected %s:{retriever}@{weight}", name, kind)
	}
	base, weight := rest[:i], rest[i+1:]
	if !betaPattern.MatchString(weight) {
		return Spec{}, fmt.Errorf("retriever %q: expected a %s weight with two decimals from 0.00 to 1.00, got %q", name, kind, weight)
	}
	if k, _, ok := strings.Cut(base, ":"); ok && (k == RemedyMMR || k == RemedyPeriod) {
		return Spec{}, fmt.Errorf("retriever %q: remedies do not nest; expected %s:{single or fused retriever}@{weight}", name, kind)
	}
	spec, err := ParseName(base)
	if err != nil {
		return Spec{}, fmt.Errorf("retriever %q: %w", name, err)
	}
	spec.Remedy = kind
	spec.Weight, _ = strconv.ParseFloat(weight, 64)
	return spec, nil
}

func parseBase(name, kind, rest string, fused bool) (Spec, error) {
	if !fused {
		s, err := parseSingle(name)
		if err != nil {
			return Spec{}, err
		}
		return Spec{Single: s}, nil
	}
	spec := Spec{Fusion: kind}
	switch kind {
	case FusionLinear, FusionZScore:
		pair, beta, ok := strings.Cut(rest, "@")
		if !ok {
			return Spec{}, fmt.Errorf("retriever %q: expected %s:{bm25 retriever}+{vector retriever}@{β}", name, kind)
		}
		if !betaPattern.MatchString(beta) {
			return Spec{}, fmt.Errorf("retriever %q: expected β with two decimals from 0.00 to 1.00, got %q", name, beta)
		}
		spec.Beta, _ = strconv.ParseFloat(beta, 64)
		rest = pair
	case FusionRRF:
		if strings.Contains(rest, "@") {
			return Spec{}, fmt.Errorf("retriever %q: rrf takes no β; expected rrf:{bm25 retriever}+{vector retriever}", name)
		}
	default:
		return Spec{}, fmt.Errorf("retriever %q: unknown fusion %q; expected %s, %s or %s (or a remedy, %s or %s)", name, kind, FusionLinear, FusionRRF, FusionZScore, RemedyMMR, RemedyPeriod)
	}
	a, b, ok := strings.Cut(rest, "+")
	if !ok {
		return Spec{}, fmt.Errorf("retriever %q: expected two retrievers joined by +", name)
	}
	var err error
	if spec.BM25, err = parseSingle(a); err != nil {
		return Spec{}, fmt.Errorf("retriever %q: %w", name, err)
	}
	if spec.Vector, err = parseSingle(b); err != nil {
		return Spec{}, fmt.Errorf("retriever %q: %w", name, err)
	}
	if spec.BM25.Method != MethodBM25 || spec.Vector.Method != MethodVector {
		return Spec{}, fmt.Errorf("retriever %q: expected a _bm25 retriever before + and a _vector retriever after it", name)
	}
	return spec, nil
}

func parseSingle(name string) (Single, error) {
	for _, method := range []string{MethodBM25, MethodVector} {
		rep, ok := strings.CutSuffix(name, "_"+method)
		if !ok {
			continue
		}
		for _, known := range represent.Names {
			if rep == known {
				return Single{Rep: rep, Method: method}, nil
			}
		}
		if rep == represent.EverydayTextRep && method == MethodBM25 {
			return Single{Rep: rep, Method: method}, nil // everyday search only: no vectors are stored for it
		}
		return Single{}, fmt.Errorf("retriever %q: unknown representation %q; expected one of %s", name, rep, strings.Join(represent.Names, ", "))
	}
	return Single{}, fmt.Errorf("retriever %q: expected {rep}_bm25, {rep}_vector, hybrid:…, rrf:…, zscore:…, mmr:… or period:…", name)
}

// Pairing is one of the paper's hybrid pairings of a BM25 and a vector
// retriever.
type Pairing struct {
	Label  string // short label, e.g. "S-BM25+S-Vec"
	BM25   Single
	Vector Single
}

// Spec returns the linear hybrid of the pairing at weight beta.
func (p Pairing) Spec(beta float64) Spec {
	return Spec{Fusion: FusionLinear, BM25: p.BM25, Vector: p.Vector, Beta: beta}
}

// Name returns the retriever name of the linear hybrid at weight beta.
func (p Pairing) Name(beta float64) string { return p.Spec(beta).String() }

// PaperPairings are the paper's six pairings in its order (spec §9).
var PaperPairings = [6]Pairing{
	{"S-BM25+S-Vec", Single{represent.Summary, MethodBM25}, Single{represent.Summary, MethodVector}},
	{"S-BM25+E-Vec", Single{represent.Summary, MethodBM25}, Single{represent.EmbeddingTextRep, MethodVector}},
	{"R-BM25+S-Vec", Single{represent.RawText, MethodBM25}, Single{represent.Summary, MethodVector}},
	{"R-BM25+E-Vec", Single{represent.RawText, MethodBM25}, Single{represent.EmbeddingTextRep, MethodVector}},
	{"E-BM25+S-Vec", Single{represent.EmbeddingTextRep, MethodBM25}, Single{represent.Summary, MethodVector}},
	{"E-BM25+E-Vec", Single{represent.EmbeddingTextRep, MethodBM25}, Single{represent.EmbeddingTextRep, MethodVector}},
}

// NeedsVectors reports whether the retriever searches stored vectors: a
// vector retriever, any fusion, or a remedy over either.
func (s Spec) NeedsVectors() bool {
	return s.Fusion != "" || s.Single.Method == MethodVector
}

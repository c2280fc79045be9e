package experiment_test

import (
	"testing"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/retrieval"
)

// TestValidationBoundaries: each bound of the protocol and of the resample
// count accepts its edge and refuses the value just past it.
func TestValidationBoundaries(t *testing.T) {
	for _, c := range []struct {
		b    int
		fail bool
	}{{0, true}, {1, false}, {experiment.MaxBootstrap, false}, {experiment.MaxBootstrap + 1, true}} {
		if err := experiment.CheckBootstrap(c.b); (err != nil) != c.fail {
			t.Errorf("CheckBootstrap(%d) = %v, want failure %v", c.b, err, c.fail)
		}
	}
	cases := []struct {
		name   string
		change func(*experiment.Protocol)
		fail   bool
	}{
		{"level 0", func(p *experiment.Protocol) { p.Level = 0 }, true},
		{"level 1", func(p *experiment.Protocol) { p.Level = 1 }, true},
		{"level 0.5", func(p *experiment.Protocol) { p.Level = 0.5 }, false},
		{"run depth 0", func(p *experiment.Protocol) { p.RunDepth = 0 }, true},
		{"run depth 1", func(p *experiment.Protocol) { p.RunDepth = 1 }, false},
		{"embedding cap 0", func(p *experiment.Protocol) { p.EmbeddingCap = 0 }, true},
		{"embedding cap 1", func(p *experiment.Protocol) { p.EmbeddingCap = 1 }, false},
		{"B 1", func(p *experiment.Protocol) { p.B = 1 }, false},
	}
	for _, c := range cases {
		p := experiment.PaperProtocol()
		c.change(&p)
		if err := p.Validate(); (err != nil) != c.fail {
			t.Errorf("%s: Validate() = %v, want failure %v", c.name, err, c.fail)
		}
	}
}

// TestScoreWithOneResample: B = 1 is the smallest protocol that scores.
func TestScoreWithOneResample(t *testing.T) {
	s := fixture()
	s.Protocol.B = 1
	if _, err := s.Evaluate("raw_text_bm25"); err != nil {
		t.Errorf("Evaluate with B = 1: %v", err)
	}
}

// TestRunSpecDepthZeroMeansTheProtocolDepth: depth ≤ 0 asks for the
// protocol's run depth, here 2 of the fixture's 3 chunks (a dense retriever
// ranks every chunk), not for every ranked chunk.
func TestRunSpecDepthZeroMeansTheProtocolDepth(t *testing.T) {
	s := fixture()
	s.Protocol.RunDepth = 2
	spec, err := retrieval.ParseName("raw_text_vector")
	if err != nil {
		t.Fatal(err)
	}
	zero, err := s.RunSpec(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	full, err := s.RunSpec(spec, s.Protocol.RunDepth)
	if err != nil {
		t.Fatal(err)
	}
	for qid, hits := range full {
		if len(zero[qid]) != len(hits) || len(hits) != 2 {
			t.Errorf("%s: depth 0 gives %d hits, the protocol depth %d", qid, len(zero[qid]), len(hits))
		}
	}
}

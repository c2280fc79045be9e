package reproduce_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/robustness"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// seedResult builds a seed result whose single retriever i scores
// base + i·step in every metric (question-level interval ±0.1) and whose
// selected hybrid of pairing at beta scores hybrid.
func seedResult(seed uint64, base, step, hybrid float64, pairing string, beta float64) robustness.SeedResult {
	iv := func(v float64) map[string]experiment.Interval {
		m := map[string]experiment.Interval{}
		for _, metric := range experiment.PaperProtocol().Metrics {
			m[metric] = experiment.Interval{Mean: v, Lo: v - 0.1, Hi: v + 0.1}
		}
		return m
	}
	r := robustness.SeedResult{Seed: seed, Chunks: 1000 + int(seed), Questions: 100, Gain: map[string]experiment.Interval{},
		SelectedByType: map[string]float64{"named_entity": 0.8, "contextual": 0.7, "aggregate": 0.3}}
	bestV := -1.0
	for i, name := range experiment.PaperProtocol().Singles {
		v := base + float64(i)*step
		r.Singles = append(r.Singles, robustness.Estimate{Name: name, Metrics: iv(v)})
		if v > bestV {
			r.BestSingle, bestV = name, v
		}
	}
	r.Selected = robustness.Hybrid{Estimate: robustness.Estimate{Name: "hybrid:" + pairing, Metrics: iv(hybrid)}, Pairing: pairing, Beta: beta}
	for _, metric := range experiment.PaperProtocol().Metrics {
		d := hybrid - bestV
		r.Gain[metric] = experiment.Interval{Mean: d, Lo: d - 0.05, Hi: d + 0.05}
	}
	return r
}

func fakeRobustness(t *testing.T) *reproduce.Robustness {
	t.Helper()
	sum, err := robustness.Aggregate([]robustness.SeedResult{
		seedResult(3, 0.50, 0.02, 0.55, "E-BM25+E-Vec", 0.45),
		seedResult(1, 0.40, 0.05, 0.70, "E-BM25+E-Vec", 0.45),
		seedResult(2, 0.60, -0.05, 0.62, "E-BM25+S-Vec", 0.50),
	}, func() experiment.Protocol { p := experiment.PaperProtocol(); p.B = 500; return p }())
	if err != nil {
		t.Fatal(err)
	}
	return &reproduce.Robustness{Summary: sum, Scale: "small", EmbedModel: "lsa-test",
		Opts: reproduce.PaperOptions("", "")}
}

// TestRobustnessLayout pins the Markdown of the robustness tables (golden
// files under testdata/) and checks that WriteAll writes every table in three
// formats, the figure, the per-seed CSV and the saved results, identically
// twice.
func TestRobustnessLayout(t *testing.T) {
	r := fakeRobustness(t)
	for _, tab := range r.Tables() {
		var b bytes.Buffer
		if err := tab.WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", tab.BaseName()+".md")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs from %s:\n%s", tab.BaseName(), golden, b.Bytes())
		}
	}

	a, b := t.TempDir(), t.TempDir()
	first, err := r.WriteAll(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.WriteAll(b); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, slug := range []string{reproduce.RobustnessSlug, reproduce.RobustnessSpreadSlug, reproduce.RobustnessSelectionSlug, reproduce.RobustnessClaimsSlug, reproduce.RobustnessOrderSlug} {
		for _, ext := range []string{".csv", ".md", ".tex"} {
			want = append(want, slug+ext)
		}
	}
	want = append(want, reproduce.RobustnessFigureSlug+".png", reproduce.RobustnessFigureSlug+".svg", reproduce.RobustnessFigureSlug+".pdf", reproduce.RobustnessFigureSlug+reproduce.CaptionExt, reproduce.RobustnessPerSeedFile, reproduce.RobustnessSavedFile)
	var got []string
	for _, p := range first {
		got = append(got, filepath.Base(p))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	for _, name := range got {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two writes", name)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(a, reproduce.RobustnessPerSeedFile))
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	// header, then per seed: 5 singles, selected, gain, 3 question types.
	if len(lines) != 1+3*10 || !strings.HasPrefix(lines[1], "1,1001,100,single,raw_text_bm25,0.4,") {
		t.Errorf("per-seed CSV: %d lines, first row %q", len(lines), lines[1])
	}
}

func TestRobustnessFigure(t *testing.T) {
	p, err := fakeRobustness(t).Figure()
	if err != nil {
		t.Fatal(err)
	}
	svg, err := report.RenderSVG(p, report.DefaultWidth, report.DefaultHeight)
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range append(experiment.PaperProtocol().Singles, robustness.SelectedHybrid, "one seed", "paper") {
		if !bytes.Contains(svg, []byte(label)) {
			t.Errorf("figure has no label %q", label)
		}
	}
}

// TestRobustnessSaveLoad: a saved run loads back into the same tables.
func TestRobustnessSaveLoad(t *testing.T) {
	r := fakeRobustness(t)
	path := filepath.Join(t.TempDir(), "robustness.json")
	if err := r.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := reproduce.LoadRobustness(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, tab := range r.Tables() {
		var a, b bytes.Buffer
		if err := tab.WriteMarkdown(&a); err != nil {
			t.Fatal(err)
		}
		if err := back.Tables()[i].WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s differs after Save and LoadRobustness:\n%s\n%s", tab.BaseName(), a.String(), b.String())
		}
	}
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := reproduce.LoadRobustness(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("LoadRobustness of a broken file: %v, want an error naming it", err)
	}
}

package reproduce

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/robustness"
	"github.com/linemem/linemem/lib/synth"
)

// File names of the multi-seed robustness run (`linemem robustness`). They
// are not written by `linemem reproduce`.
const (
	RobustnessSlug          = "robustness_seeds"           // distribution of every metric over the seeds
	RobustnessSpreadSlug    = "robustness_seeds_spread"    // min, P10, mean, P90 and max of every metric over the seeds
	RobustnessSelectionSlug = "robustness_seeds_selection" // how often each pairing, configuration and best single is selected
	RobustnessClaimsSlug    = "robustness_seeds_claims"    // on how many seeds each of the paper's statements holds
	RobustnessOrderSlug     = "robustness_seeds_order"     // on how many seeds each pairwise order of Table 3 holds
	RobustnessFigureSlug    = "robustness_seeds_recall5"   // Recall@5 per seed, with the mean, P10–P90 and the paper's value
	RobustnessPerSeedFile   = "robustness_seeds_per_seed.csv"
	RobustnessSavedFile     = "robustness_seeds.json" // the per-seed results and settings (Save), read by LoadRobustness and `benchmark compare`
)

// Robustness is a multi-seed run of the paper protocol with what its tables
// need to describe it.
type Robustness struct {
	*robustness.Summary
	Scale      string
	Opts       Options // the per-seed reproduction options (tokenizer, question-level bootstrap)
	EmbedModel string  // the embedding model every seed used
}

// RunRobustness runs the paper protocol on every seed of ro with Prepare
// (under base's tokenizer, embedding model and bootstrap settings; DataDir,
// DBPath and Log are set per seed) and aggregates the results with a
// seed-level bootstrap of base's B resamples from base's seed.
func RunRobustness(ro robustness.Options, base Options) (*Robustness, error) {
	var mu sync.Mutex
	models := map[string]bool{}
	ro.Prepare = func(dataDir, dbPath string) (*experiment.Setup, io.Closer, error) {
		o := base
		o.DataDir, o.DBPath, o.Log = dataDir, dbPath, nil
		s, err := Prepare(o)
		if err != nil {
			return nil, nil, err
		}
		mu.Lock()
		models[s.EmbedModel] = true
		mu.Unlock()
		return s.Setup, s, nil
	}
	results, err := robustness.Run(ro)
	if err != nil {
		return nil, err
	}
	if len(models) != 1 {
		return nil, fmt.Errorf("robustness: seeds used different embedding models %v", slices.Sorted(maps.Keys(models)))
	}
	sum, err := robustness.Aggregate(results, base.Protocol)
	if err != nil {
		return nil, err
	}
	r := &Robustness{Summary: sum, Scale: ro.Scale, Opts: base}
	if r.Scale == "" {
		r.Scale = synth.ScaleSmall
	}
	for m := range models {
		r.EmbedModel = m
	}
	return r, nil
}

// Tables returns the robustness tables: the mean of every metric with its
// intervals, its spread over seeds, the selections, the paper's claims and the pairwise orders.
func (r *Robustness) Tables() []report.Table {
	ts := make([]report.Table, len(robustnessTables))
	for i, table := range robustnessTables {
		ts[i] = table(r)
	}
	return ts
}

// robustnessTables lay out the tables of a multi-seed run, in order.
var robustnessTables = []func(*Robustness) report.Table{
	(*Robustness).DistributionTable, (*Robustness).SpreadTable, (*Robustness).SelectionTable, (*Robustness).ClaimsTable, (*Robustness).OrderTable,
}

func (r *Robustness) n() int { return len(r.Seeds) }

func (r *Robustness) ofSeeds(k int) string { return fmt.Sprintf("%d of %d", k, r.n()) }

// setupNote states what every seed ran.
func (r *Robustness) setupNote() string {
	return fmt.Sprintf("Seeds %s of lib/synth at scale %s (%d corpora, each with its own %d questions); per seed the paper protocol only: BM25 with the %s tokenizer, vectors %s, the five single retrievers, the 6 pairings × 21 β sweep and its selection rule. Question-level intervals: percentile bootstrap over each seed's questions (B = %d, seed = %d); seed-level intervals: the same bootstrap over seeds (B = %d, seed = %d), type-7 percentiles.",
		robustness.FormatSeeds(r.Seeds), r.Scale, r.n(), r.Results[0].Questions, r.Opts.Protocol.Tokenizer, r.EmbedModel, r.Opts.Protocol.B, r.Opts.Protocol.Seed, r.B, r.BootstrapSeed)
}

// robustnessAbbreviations shorten the LaTeX versions of the robustness
// tables (with the single retrievers' short labels that writeTable adds).
var robustnessAbbreviations = []report.Abbreviation{
	{Full: robustness.HybridGain, Short: "Hybrid − best"},
	{Full: robustness.SelectedHybrid, Short: "Hybrid"},
	{Full: "Recall@", Short: "R@"},
	{Full: "Success@", Short: "S@"},
}

// DistributionTable lists, per retriever and metric, the mean over seeds
// with its seed-level interval beside the question-level interval averaged
// over seeds, the value on the committed seed (synth.DefaultSeed) and the
// paper's value.
func (r *Robustness) DistributionTable() report.Table {
	t := report.Table{Slug: RobustnessSlug,
		Caption:       fmt.Sprintf("The paper protocol on %d synthetic seeds: mean of each metric, with seed-level and question-level intervals", r.n()),
		Columns:       []string{"Retriever", "Metric", "Mean", "Seed CI", "Question CI", fmt.Sprintf("Seed %d", synth.DefaultSeed), "Paper"},
		Align:         []report.Alignment{report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight},
		Abbreviations: robustnessAbbreviations,
	}
	defaultAt := slices.Index(r.Seeds, synth.DefaultSeed)
	for _, row := range r.Rows {
		f := rowFormat(row)
		t.Rows = append(t.Rows, []string{row.Retriever, metrics.Label(row.Metric), f(row.Mean),
			report.CI3(row.SeedCI.Lo, row.SeedCI.Hi), report.CI3(row.QuestionCI.Lo, row.QuestionCI.Hi),
			r.seedValue(row, defaultAt, f), paperCell(row, f)})
	}
	t.Notes = []string{
		r.setupNote(),
		"Seed CI: the seed-level 95% interval of the mean over seeds (how well the seeds pin down the generator's average). Question CI: each seed's question-level 95% interval (the paper's kind), averaged bound by bound over the seeds (the uncertainty one corpus of questions carries). The spread over seeds is in " + RobustnessSpreadSlug + ".",
		"Selected hybrid: each seed's own selection (pairing and β may differ between seeds). Selected hybrid − best single: the paired difference on each seed from the single retriever with that seed's highest Recall@5; its question-level interval is selection-conditioned, as in the paper's Table 5.",
	}
	return t
}

// SpreadTable lists, per retriever and metric, the minimum, 10th
// percentile, mean, 90th percentile and maximum over seeds next to the
// paper's value.
func (r *Robustness) SpreadTable() report.Table {
	t := report.Table{Slug: RobustnessSpreadSlug,
		Caption:       fmt.Sprintf("The paper protocol on %d synthetic seeds: spread of each metric over seeds", r.n()),
		Columns:       []string{"Retriever", "Metric", "Min", "P10", "Mean", "P90", "Max", "Paper"},
		Align:         []report.Alignment{report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight, report.AlignRight},
		Abbreviations: robustnessAbbreviations,
	}
	inRange, inP, withPaper := 0, 0, 0
	for _, row := range r.Rows {
		f := rowFormat(row)
		t.Rows = append(t.Rows, []string{row.Retriever, metrics.Label(row.Metric), f(row.Min), f(row.P10), f(row.Mean), f(row.P90), f(row.Max), paperCell(row, f)})
		if v, ok := robustness.PaperValueOf(row.Retriever, row.Metric); ok {
			withPaper++
			if v >= row.Min && v <= row.Max {
				inRange++
			}
			if v >= row.P10 && v <= row.P90 {
				inP++
			}
		}
	}
	t.Notes = []string{
		r.setupNote(),
		"P10 and P90: the 10th and 90th type-7 percentiles of the per-seed values.",
		fmt.Sprintf("The paper's value lies within the seeds' min–max in %d and within P10–P90 in %d of the %d rows that have one. Generator properties were chosen with the paper's figures in view (data/synthetic/README.md), so closeness to the paper is by construction and is no evidence for the paper's claims.", inRange, inP, withPaper),
	}
	return t
}

// rowFormat formats a row's values: signed for the difference row.
func rowFormat(row robustness.Row) func(float64) string {
	if row.Retriever == robustness.HybridGain {
		return report.Signed3
	}
	return report.F3
}

// seedValue is the row's value on the seed at index i of r.Seeds, "–" when
// i < 0.
func (r *Robustness) seedValue(row robustness.Row, i int, f func(float64) string) string {
	if i < 0 {
		return "–"
	}
	return f(row.Values[i])
}

func paperCell(row robustness.Row, f func(float64) string) string {
	if v, ok := robustness.PaperValueOf(row.Retriever, row.Metric); ok {
		return f(v)
	}
	return "–"
}

// SelectionTable counts the seeds selecting each pairing, each configuration
// (pairing and β) and each best single retriever.
func (r *Robustness) SelectionTable() report.Table {
	t := report.Table{Slug: RobustnessSelectionSlug, Abbreviations: robustnessAbbreviations,
		Caption: fmt.Sprintf("What the paper's selection rules choose on %d synthetic seeds", r.n()),
		Columns: []string{"Choice", "Option", "Seeds", "Share", "Paper's choice"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignLeft},
	}
	mark := func(b bool) string {
		if b {
			return "yes"
		}
		return ""
	}
	add := func(choice, option string, seeds int, paper bool) {
		t.Rows = append(t.Rows, []string{choice, option, r.ofSeeds(seeds), report.Percent1(float64(seeds) / float64(r.n())), mark(paper)})
	}
	for _, c := range r.Pairings {
		add("Selected pairing", c.Label, c.Seeds, c.Pairing == robustness.PaperPairing)
	}
	for _, c := range r.Configs {
		add("Selected configuration", fmt.Sprintf("%s @%.2f", c.Pairing, c.Beta), c.Seeds, c.Pairing == robustness.PaperPairing && c.Beta == robustness.PaperBeta)
	}
	for _, c := range r.BestSingles {
		add("Best single retriever (Recall@5)", c.Label, c.Seeds, c.Label == "embedding_text_bm25")
	}
	betas := make([]float64, len(r.Results))
	for i, res := range r.Results {
		betas[i] = res.Selected.Beta
	}
	slices.Sort(betas)
	t.Notes = []string{
		r.setupNote(),
		fmt.Sprintf("Selection: the first of the 126 configurations, in pairing order then β ascending, attaining the maximum Recall@5 on that seed's questions. Selected β ranges over [%.2f, %.2f]; configurations selected on no seed are not listed.", betas[0], betas[len(betas)-1]),
	}
	return t
}

// ClaimsTable lists robustness.Claims with the number of seeds on which each
// holds, followed by the selected hybrid's win over the best single
// retriever in the other metrics.
func (r *Robustness) ClaimsTable() report.Table {
	t := report.Table{Slug: RobustnessClaimsSlug, Abbreviations: robustnessAbbreviations,
		Caption: fmt.Sprintf("The paper's statements about its results, checked on %d synthetic seeds", r.n()),
		Columns: []string{"Statement", "Paper", "Holds on", "Share"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignLeft, report.AlignRight, report.AlignRight},
	}
	add := func(statement, paper string, seeds int) {
		t.Rows = append(t.Rows, []string{statement, paper, r.ofSeeds(seeds), report.Percent1(float64(seeds) / float64(r.n()))})
	}
	for _, c := range r.Claims {
		add(c.Statement, c.Paper, c.Seeds)
	}
	for _, m := range r.Metrics {
		if m == r.Opts.Protocol.SelectionMetric {
			continue
		}
		paper := "–"
		if v, ok := robustness.PaperValueOf(robustness.SelectedHybrid, m); ok {
			best, _ := robustness.PaperValueOf("embedding_text_bm25", m)
			paper = "yes (" + report.Signed3(v-best) + ")"
		}
		add(fmt.Sprintf("the selected hybrid's %s is above the best single retriever's", metrics.Label(m)), paper, r.HybridWins[m])
	}
	t.Notes = []string{
		r.setupNote(),
		"Best single retriever: the one with the highest Recall@5 on that seed. A statement that holds on most seeds is a property of the method on this generator; one that holds on few is a property of particular seeds. Neither says anything about real LINE histories.",
	}
	return t
}

// orderMetrics are the metrics whose Table 3 order the paper reports.
func (r *Robustness) orderMetrics() []string {
	var ms []string
	for _, m := range r.Metrics {
		if _, ok := robustness.PaperValueOf(r.Opts.Protocol.Singles[0], m); ok {
			ms = append(ms, m)
		}
	}
	return ms
}

// OrderTable counts, for each pair of single retrievers in Table 3 order, the
// seeds on which the later one scores above the earlier one (the paper's
// order), per metric, and the seeds on which all five follow the order.
func (r *Robustness) OrderTable() report.Table {
	ms := r.orderMetrics()
	t := report.Table{Slug: RobustnessOrderSlug, Abbreviations: robustnessAbbreviations,
		Caption: fmt.Sprintf("How often the paper's order of the single retrievers holds on %d synthetic seeds", r.n()),
		Columns: []string{"Lower in the paper", "Higher in the paper"},
	}
	t.Align = []report.Alignment{report.AlignLeft, report.AlignLeft}
	for _, m := range ms {
		t.Columns = append(t.Columns, metrics.Label(m))
		t.Align = append(t.Align, report.AlignRight)
	}
	ties := 0
	for _, o := range r.Orders {
		row := []string{o.Lower, o.Upper}
		for _, m := range ms {
			row = append(row, r.ofSeeds(o.Above[m]))
			ties += o.Ties[m]
		}
		t.Rows = append(t.Rows, row)
	}
	row := []string{"all five in Table 3's order", ""}
	for _, m := range ms {
		row = append(row, r.ofSeeds(r.FullOrder[m]))
	}
	t.Rows = append(t.Rows, row)
	t.Notes = []string{
		r.setupNote(),
		fmt.Sprintf("Each cell counts the seeds on which the higher retriever of the paper's Table 3 scores strictly above the lower one; in the paper every later row is above every earlier one in all three metrics. Exact ties over all pairs and metrics: %d.", ties),
	}
	return t
}

// Figure plots each seed's Recall@5 per single retriever and for the
// selected hybrid, with the mean and the 10th–90th percentile over seeds and
// the paper's value.
func (r *Robustness) Figure() (*plot.Plot, error) {
	const metric = metrics.Recall5
	names := append(slices.Clone(r.Opts.Protocol.Singles), robustness.SelectedHybrid)
	items := make([]report.LabeledCI, len(names))
	for i, name := range names {
		row, ok := r.Row(name, metric)
		if !ok {
			return nil, fmt.Errorf("robustness: no %s row for %s", metric, name)
		}
		items[i] = report.LabeledCI{Label: name, Value: row.Mean, Lo: row.P10, Hi: row.P90}
	}
	p, err := report.PointsWithCI(fmt.Sprintf("Recall@5 on %d synthetic seeds: mean and 10th–90th percentile", r.n()), "Recall@5", items)
	if err != nil {
		return nil, err
	}
	var seeds, paper plotter.XYs
	for i, name := range names {
		row, _ := r.Row(name, metric)
		y := float64(len(names) - 1 - i)
		for k, v := range row.Values {
			seeds = append(seeds, plotter.XY{X: v, Y: y + 0.25 + 0.04*float64(k%5-2)})
		}
		if v, ok := robustness.PaperValueOf(name, metric); ok {
			paper = append(paper, plotter.XY{X: v, Y: y})
		}
	}
	seedDots, err := plotter.NewScatter(seeds)
	if err != nil {
		return nil, err
	}
	seedDots.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 120}, Radius: vg.Points(2), Shape: draw.RingGlyph{}}
	paperMarks, err := plotter.NewScatter(paper)
	if err != nil {
		return nil, err
	}
	paperMarks.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{R: 213, G: 94, A: 255}, Radius: vg.Points(4), Shape: draw.CrossGlyph{}}
	p.Add(seedDots, paperMarks)
	p.Legend.Add("one seed", seedDots)
	p.Legend.Add("paper", paperMarks)
	p.Legend.Top, p.Legend.Left = false, true
	return p, nil
}

// robustnessArtefacts are what a multi-seed run writes, in order: the
// tables of robustnessTables, the figure, the per-seed CSV and the saved
// results (RobustnessSavedFile).
var robustnessArtefacts = append(tableRunArtefacts(robustnessTables),
	runArtefact[*Robustness]{RobustnessFigureSlug, func(r *Robustness) (Output, error) {
		p, err := r.Figure()
		return Output{Figure: &Figure{Slug: RobustnessFigureSlug, Plot: p, Notes: []string{
			"Dot and bar: the mean over seeds and the 10th to 90th percentile of the per-seed values; open circles: one seed each; ×: the paper's published value.",
			"Selected hybrid: each seed's own selection (pairing and β may differ between seeds).",
			r.setupNote(),
		}}}, err
	}},
	runArtefact[*Robustness]{strings.TrimSuffix(RobustnessPerSeedFile, ".csv"), func(r *Robustness) (Output, error) {
		data, err := r.perSeed()
		return Output{File: &File{Name: RobustnessPerSeedFile, Data: data}}, err
	}},
	runArtefact[*Robustness]{strings.TrimSuffix(RobustnessSavedFile, ".json"), func(r *Robustness) (Output, error) {
		data, err := r.saved()
		return Output{File: &File{Name: RobustnessSavedFile, Data: data}}, err
	}},
)

// WriteAll writes the tables, the figure with its caption file (at
// r.Opts.FigureSize), the per-seed CSV and the saved results into outDir and
// returns the paths written.
func (r *Robustness) WriteAll(outDir string) ([]string, error) {
	width, height := r.Opts.FigureSize()
	return writeRun(r, robustnessArtefacts, outDir, width, height)
}

// perSeed renders one row per seed and run: the single retrievers, the
// selected hybrid, its difference from the best single retriever, and the
// selected hybrid's selection metric per question type. Values are full
// precision.
func (r *Robustness) perSeed() ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(append([]string{"seed", "chunks", "questions", "kind", "retriever"}, r.Metrics...))
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, res := range r.Results {
		head := []string{strconv.FormatUint(res.Seed, 10), strconv.Itoa(res.Chunks), strconv.Itoa(res.Questions)}
		row := func(kind, name string, m map[string]experiment.Interval) {
			cells := append(slices.Clone(head), kind, name)
			for _, metric := range r.Metrics {
				cells = append(cells, num(m[metric].Mean))
			}
			w.Write(cells)
		}
		for _, e := range res.Singles {
			row("single", e.Name, e.Metrics)
		}
		row("selected", res.Selected.Name, res.Selected.Metrics)
		row("gain", res.Selected.Name+" − "+res.BestSingle, res.Gain)
		for _, typ := range slices.Sorted(maps.Keys(res.SelectedByType)) {
			cells := append(slices.Clone(head), "selected_by_type", typ)
			for _, metric := range r.Metrics {
				v := ""
				if metric == r.Opts.Protocol.SelectionMetric {
					v = num(res.SelectedByType[typ])
				}
				cells = append(cells, v)
			}
			w.Write(cells)
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// savedRobustness is what Save writes: the per-seed results and the settings
// the tables describe.
type savedRobustness struct {
	Scale      string                  `json:"scale"`
	EmbedModel string                  `json:"embed_model"`
	Tokenizer  string                  `json:"tokenizer"`
	B          int                     `json:"question_bootstrap_b"`
	Seed       uint64                  `json:"question_bootstrap_seed"`
	SeedB      int                     `json:"seed_bootstrap_b"`
	SeedSeed   uint64                  `json:"seed_bootstrap_seed"`
	Results    []robustness.SeedResult `json:"results"`
}

// saved renders what Save writes: indented JSON of the per-seed results and
// the settings.
func (r *Robustness) saved() ([]byte, error) {
	return report.JSON(savedRobustness{r.Scale, r.EmbedModel, r.Opts.Protocol.Tokenizer, r.Opts.Protocol.B, r.Opts.Protocol.Seed, r.B, r.BootstrapSeed, r.Results})
}

// Save writes the per-seed results and settings as JSON to path (what
// WriteAll writes as RobustnessSavedFile), so that LoadRobustness can
// rebuild r without running the seeds again (a notebook runs them in one
// cell and shows them in the next).
func (r *Robustness) Save(path string) error {
	data, err := r.saved()
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// LoadRobustness reads what Save wrote and aggregates it again.
func LoadRobustness(path string) (*Robustness, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var saved savedRobustness
	if err := json.Unmarshal(b, &saved); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sum, err := robustness.Aggregate(saved.Results, savedOptions(saved.Tokenizer, saved.SeedB, saved.SeedSeed).Protocol)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Robustness{Summary: sum, Scale: saved.Scale, Opts: savedOptions(saved.Tokenizer, saved.B, saved.Seed), EmbedModel: saved.EmbedModel}, nil
}

// metricName is metrics.Label, the name the real-data benchmark's tables
// call it by.
func metricName(m string) string { return metrics.Label(m) }

package reproduce

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/expand"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/kagome"
)

// Round two beyond the paper (lib/beyond): result names fixed by the
// specification (§13).
const (
	QueryExpansionSlug   = "beyond_query_expansion"
	AblationSlug         = "beyond_embedding_text_ablation"
	LosslessSlug         = "beyond_lossless"
	SelectionAwareSlug   = "beyond_selection_aware"
	EvidenceGroupsSlug   = "beyond_evidence_groups"
	AblationFigureSlug   = "beyond_embedding_text_ablation_recall5"
	expansionWhat        = "RM3 pseudo-relevance feedback and kagome phrase sub-queries"
	holmNote             = "p: two-sided paired bootstrap p-value on the same resamples; Holm: adjusted across the table's comparisons."
	selectionBootstrapOf = "selection redone in every resample"
)

// OfflineExpanders are the expanders reproduce measures: the LLM decomposer
// sends questions to a remote model and is measured only on request.
var OfflineExpanders = []string{expand.NameRM3, expand.NamePhrases}

// AblationTokenizers are the BM25 tokenizers of the embedding_text ablation:
// the paper's and kagome.
var AblationTokenizers = []string{tokenize.Default, kagome.Name}

func pCell(p float64) string { return strconv.FormatFloat(p, 'f', 3, 64) }

func ivCell(iv experiment.Interval) string {
	return report.F3(iv.Mean) + " " + report.CI3(iv.Lo, iv.Hi)
}

func dCell(d *beyond.Diff) (diff, p, holm string) {
	if d == nil {
		return "–", "–", "–"
	}
	return report.Signed3(d.Mean) + " " + report.CI3(d.Lo, d.Hi), pCell(d.P), pCell(d.Holm)
}

func (s *Study) bootstrapWords() string {
	return fmt.Sprintf("percentile bootstrap, B = %d, seed = %d", s.Protocol.B, s.Protocol.Seed)
}

// expansionBuilder returns a Builder over the study's corpus whose vector
// source folds sub-queries into the stored local model
// (memory.LocalQueryVectors); with vectors from elsewhere (shipped or
// remote) there is no local model to fold in with and the hybrid base is
// left out (ok = false).
func (s *Study) expansionBuilder() (*retrieval.Builder, bool, error) {
	if !lsa.IsModelName(s.EmbedModel) {
		return s.Builder, false, nil
	}
	vs := memory.LocalQueryVectors(s.Store)
	return retrieval.NewBuilder(retrieval.Corpus{Chunks: s.Chunks, Summaries: s.Summaries}, vs, retrieval.Options{Tokenizer: s.Protocol.Tokenizer, EmbedModel: s.EmbedModel}), true, nil
}

// bestSingle returns the single retriever with the highest Recall@5 (first
// on ties, Table 3 order).
func (s *Study) bestSingle() (*experiment.Evaluation, error) {
	singles, err := s.Singles()
	if err != nil {
		return nil, err
	}
	cs := make([]beyond.Candidate, len(singles))
	for i, ev := range singles {
		cs[i] = beyond.Candidate{Name: ev.Name, Scores: ev.Result.Scores(s.Protocol.SelectionMetric)}
	}
	return singles[beyond.SelectFirstMax(cs, allPositions(len(singles[0].Result.QIDs)))], nil
}

func allPositions(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// QueryExpansionTable compares multi-query retrieval (OfflineExpanders over
// the best single retriever and over the selected hybrid) with the selected
// hybrid, overall and on aggregate questions (QueryExpansionSlug).
func (s *Study) QueryExpansionTable() (report.Table, error) {
	_, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	single, err := s.bestSingle()
	if err != nil {
		return report.Table{}, err
	}
	b, folds, err := s.expansionBuilder()
	if err != nil {
		return report.Table{}, err
	}
	bases := []string{single.Name, cfg.Name}
	if !folds {
		bases = bases[:1]
	}
	names := beyond.ExpansionNames(cfg.Name, bases, OfflineExpanders)
	setup := experiment.NewSetup(s.Questions, s.Qrels, b)
	setup.Protocol = s.Protocol
	exp, err := beyond.QueryExpansion(setup, names, []string{questions.Aggregate})
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Slug: QueryExpansionSlug, Caption: "Multi-query retrieval (" + expansionWhat + ") against the selected hybrid",
		Columns: []string{"Questions", "Retriever", "Recall@5 (95% CI)", "Recall@20", "Recall@200", "ΔRecall@5 vs hybrid (95% CI)", "Holm p"},
		// Seven columns with long retriever names fit a one-column page only
		// with the metric name and the selected hybrid short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}, {Full: cfg.Name, Short: "H"}},
		Notes: []string{
			"multi:{expander}:{base} runs the base on the question and on each sub-query (top 200 each) and merges by reciprocal rank fusion, K = 60, the question weighing as much as all its sub-queries together: 1/(60 + r_0) + (1/m)·Σ 1/(60 + r_i).",
			fmt.Sprintf("rm3: relevance model 3 from the top %d embedding_text BM25 chunks, %d feedback terms (with a letter, in at most %.0f%% of chunks), original weight %.1f, one expanded query. phrases: kagome noun runs and content verbs of the question, the first phrase paired with each other one. The LLM decomposer (multi:llm:…, prompt %s) needs --allow-remote and is not part of reproduce.",
				expand.DefaultFeedbackDocs, expand.DefaultFeedbackTerms, 100*expand.MaxFeedbackDF, expand.DefaultOriginalWeight, expand.PromptVersion),
			"Δ: paired difference from the selected hybrid (" + cfg.Name + "); " + s.bootstrapWords() + "; aggregate rows resample within the type. Recall@20 and Recall@200 show whether the candidates changed.",
		}}
	for _, f := range exp.Families {
		for i, m := range f.Methods {
			d, _, h := dCell(f.Diffs[i])
			sc := f.Scores[i]
			t.Rows = append(t.Rows, []string{fmt.Sprintf("%s (%d)", f.Type, f.Questions), m, ivCell(sc["recall@5"]), report.F3(sc["recall@20"].Mean), report.F3(sc["recall@200"].Mean), d, h})
		}
	}
	var subs []string
	for _, e := range OfflineExpanders {
		for _, m := range names {
			if n, ok := exp.SubQueries[m]; ok && strings.HasPrefix(m, retrieval.Multi+":"+e+":") {
				subs = append(subs, fmt.Sprintf("%s %s", e, strconv.FormatFloat(n, 'f', 2, 64)))
				break
			}
		}
	}
	t.Notes = append(t.Notes, "Sub-queries per question, on average: "+strings.Join(subs, ", ")+". Holm p: the two-sided paired bootstrap p-value, Holm-adjusted across each question set's comparisons.")
	return t, nil
}

// Ablation runs the embedding_text component ablation (lib/beyond).
func (s *Study) Ablation() ([]beyond.AblationRow, error) {
	return beyond.Ablation(beyond.AblationInput{Chunks: s.Chunks, Summaries: s.Summaries, Questions: s.Questions, Qrels: s.Qrels, Tokenizers: AblationTokenizers, Protocol: s.Protocol})
}

// AblationTableOf is the AblationSlug table `linemem reproduce` writes:
// AblationTable with the study's bootstrap settings in its note.
func (s *Study) AblationTableOf(rows []beyond.AblationRow) report.Table {
	return AblationTable(rows, s.bootstrapWords()+"; Δ paired against the paper's composition under the same method.")
}

// AblationTable lays the ablation out as AblationSlug.
func AblationTable(rows []beyond.AblationRow, note string) report.Table {
	t := report.Table{Slug: AblationSlug, Caption: "embedding_text components: each alone and the paper's composition",
		Columns: append(append([]string{"Method", "Text indexed"}, ciColumns...), "ΔRecall@5 vs paper's (95% CI)", "p", "Holm p"),
		// Many interval columns fit a one-column page only with the metric name short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}},
		Notes: []string{
			"prefix only: the fixed first line, the same for every chunk (a floor; the vector model cannot be fitted on one text). summary only: the summary. raw excerpt only: the first 4,000 characters of raw_text. The paper's: prefix, summary, excerpt label and excerpt.",
			"The vector rows fit the local LSA embedder on each variant's own texts (inputs capped at 2,000 characters, queries folded in). " + note + " " + holmNote,
		}}
	for _, r := range rows {
		if r.Eval == nil {
			t.Rows = append(t.Rows, []string{r.Method, r.Variant, "–", "–", "–", "not run: " + r.Skipped, "–", "–"})
			continue
		}
		d, p, h := dCell(r.Diff)
		t.Rows = append(t.Rows, []string{r.Method, r.Variant, metricCell(r.Eval, "recall@5"), metricCell(r.Eval, "mrr@5"), metricCell(r.Eval, "ndcg@5"), d, p, h})
	}
	return t
}

// AblationFigure plots Recall@5 with its interval for every row that ran.
func AblationFigure(rows []beyond.AblationRow) (*plot.Plot, error) {
	var items []report.LabeledCI
	for _, r := range rows {
		if r.Eval == nil {
			continue
		}
		iv := r.Eval.CI["recall@5"]
		items = append(items, report.LabeledCI{Label: r.Method + " · " + r.Variant, Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi})
	}
	return report.PointsWithCI("Recall@5 by embedding_text composition (95% CI)", "Recall@5", items)
}

// messages returns every stored message, sources in store order.
func (s *Study) messages() ([]chat.Message, error) {
	sources, err := s.Store.Sources()
	if err != nil {
		return nil, err
	}
	var msgs []chat.Message
	for _, src := range sources {
		m, err := s.Store.Messages(src.Name)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m...)
	}
	return msgs, nil
}

// evidence reads the data folder's evidence.jsonl; ok is false without one.
func (s *Study) evidence() (ev []gold.Evidence, ok bool, err error) {
	if !s.exists(EvidenceFile) {
		return nil, false, nil
	}
	ev, err = gold.ReadEvidenceFile(s.dataPath(EvidenceFile))
	return ev, err == nil, err
}

// LosslessTable runs the paper's protocol on the paper's chunks and on
// lossless chunks (chunking.Options.Lossless), gold resolved from
// evidence.jsonl over each, and compares Recall@5 over all questions, a
// question without primary gold in a chunking counting 0 (LosslessSlug).
func (s *Study) LosslessTable() (report.Table, bool, error) {
	ev, ok, err := s.evidence()
	if err != nil || !ok {
		return report.Table{}, ok, err
	}
	msgs, err := s.messages()
	if err != nil {
		return report.Table{}, true, err
	}
	opts := s.Opts.Chunking
	opts.Lossless = true
	lossless, err := beyond.ChunkAll(msgs, opts)
	if err != nil {
		return report.Table{}, true, err
	}
	sums, borrowed := beyond.BorrowSummaries(lossless, s.Chunks, s.Summaries)
	var runs [2]*beyond.Protocol
	for i, c := range []struct {
		label  string
		chunks []chat.Chunk
		sums   map[string]string
		vs     retrieval.VectorSource
	}{{"paper (trimming)", s.Chunks, s.Summaries, s.Store}, {"lossless", lossless, sums, nil}} {
		if runs[i], err = beyond.RunProtocol(beyond.ProtocolInput{Label: c.label, Chunks: c.chunks, Summaries: c.sums, Messages: msgs, Evidence: ev, Questions: s.Questions, Protocol: s.Protocol, Vectors: c.vs, Model: s.EmbedModel}); err != nil {
			return report.Table{}, true, err
		}
	}
	paper, loss := runs[0], runs[1]
	ix := beyond.NewIndices(s.Protocol, len(s.Questions))
	t := report.Table{Slug: LosslessSlug, Caption: "The paper's protocol on trimmed and on lossless chunks",
		Columns: []string{"Retriever", "Recall@5 paper (95% CI)", "Recall@5 lossless (95% CI)", "Δ lossless − paper (95% CI)", "p", "Holm p"},
		// Many interval columns fit a one-column page only with the metric name short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}},
		Notes: []string{
			fmt.Sprintf("Chunks: %d (paper) and %d (lossless; %d without a shipped summary take that of the paper chunk sharing most of their messages). Gold resolved from evidence.jsonl over each: %d and %d evidence items in no chunk; %d and %d questions without primary gold.",
				len(paper.Chunks), len(loss.Chunks), borrowed, len(paper.Gold.Unchunked), len(loss.Gold.Unchunked), len(paper.Gold.NoPrimary), len(loss.Gold.NoPrimary)),
			fmt.Sprintf("Recall@5 over all %d questions, a question without primary gold counting 0. Each chunking runs the whole protocol: vectors (the study's for the paper's chunks, the local LSA embedder fitted on the lossless chunks), single retrievers, 126-configuration sweep and selection (selected: %s and %s). Δ: paired over questions; %s. %s",
				len(s.Questions), paper.Selected.Name, loss.Selected.Name, s.bootstrapWords(), holmNote),
		}}
	pairs := [][2]*experiment.Evaluation{}
	labels := []string{}
	for i := range paper.Singles {
		pairs = append(pairs, [2]*experiment.Evaluation{paper.Singles[i], loss.Singles[i]})
		labels = append(labels, paper.Singles[i].Name)
	}
	pairs = append(pairs, [2]*experiment.Evaluation{paper.Selected, loss.Selected})
	labels = append(labels, "selected hybrid")
	var diffs []*beyond.Diff
	var cells [][2]experiment.Interval
	for _, p := range pairs {
		a, b := beyond.AllQuestions(p[0], s.Questions, "recall@5"), beyond.AllQuestions(p[1], s.Questions, "recall@5")
		d := beyond.PairedDiff(ix, b, a, bootstrapLevel())
		diffs = append(diffs, &d)
		cells = append(cells, [2]experiment.Interval{meanInterval(ix, a), meanInterval(ix, b)})
	}
	beyond.HolmAll(diffs)
	for i, l := range labels {
		d, p, h := dCell(diffs[i])
		t.Rows = append(t.Rows, []string{l, ivCell(cells[i][0]), ivCell(cells[i][1]), d, p, h})
	}
	return t, true, nil
}

// SelectionAware estimates how much of the selected hybrid's in-sample gain
// over the best single retriever survives selection (SelectionAwareSlug):
// nested cross-validation, the selection-aware bootstrap, and Holm-adjusted
// p-values of the paper's Table 5 comparisons.
func (s *Study) SelectionAwareTable() (report.Table, error) {
	sw, err := s.Sweep()
	if err != nil {
		return report.Table{}, err
	}
	singles, err := s.Singles()
	if err != nil {
		return report.Table{}, err
	}
	best, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	single, err := s.bestSingle()
	if err != nil {
		return report.Table{}, err
	}
	sh, _, err := s.SummaryHybrid()
	if err != nil {
		return report.Table{}, err
	}
	var hybrids, singleCs []beyond.Candidate
	for _, c := range sw.Configs {
		hybrids = append(hybrids, beyond.Candidate{Name: c.Name, Pairing: c.Pairing, Scores: c.Result.Scores(s.Protocol.SelectionMetric)})
	}
	for _, ev := range singles {
		singleCs = append(singleCs, beyond.Candidate{Name: ev.Name, Scores: ev.Result.Scores(s.Protocol.SelectionMetric)})
	}
	n := len(best.Result.QIDs)
	ix := s.Setup.Indices(n)
	level := bootstrapLevel()
	rec := func(ev *experiment.Evaluation) []float64 { return ev.Result.Scores("recall@5") }
	inGain := beyond.PairedDiff(ix, rec(best), rec(single), level)

	cv, err := beyond.NestedCV(hybrids, singleCs, beyond.NestedFolds, s.Protocol.Seed)
	if err != nil {
		return report.Table{}, err
	}
	oofH, oofS := meanInterval(ix, cv.HybridOOF), meanInterval(ix, cv.SingleOOF)
	oofGain := beyond.PairedDiff(ix, cv.HybridOOF, cv.SingleOOF, level)
	same := 0
	for _, h := range cv.Hybrid {
		if h == cfg.Name {
			same++
		}
	}
	sb := beyond.SelectionAware(hybrids, singleCs, ix)
	inM, inLo, inHi := beyond.Spread(sb.InResample, level)
	oobM, oobLo, oobHi := beyond.Spread(sb.OutOfBag, level)

	t5 := []*beyond.Diff{}
	for _, other := range []*experiment.Evaluation{single, sh} {
		d := beyond.PairedDiff(ix, rec(best), rec(other), level)
		t5 = append(t5, &d)
	}
	beyond.HolmAll(t5)

	row := func(q string, iv experiment.Interval, signed bool, note string) []string {
		f := report.F3
		if signed {
			f = report.Signed3
		}
		return []string{q, f(iv.Mean), report.CI3(iv.Lo, iv.Hi), note}
	}
	share := func(x float64) string { return report.Percent1(x/inGain.Mean) + " of the in-sample gain" }
	t := report.Table{Slug: SelectionAwareSlug, Caption: "How much of the selected hybrid's gain survives its selection",
		Columns: []string{"Quantity", "Estimate", "95% CI", "Note"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignLeft},
		Rows: [][]string{
			row("In-sample Recall@5 of the selected hybrid", best.CI["recall@5"], false, cfg.Name),
			row("In-sample Recall@5 of the best single retriever", single.CI["recall@5"], false, single.Name),
			row("In-sample gain (conditional on the selection)", inGain.Interval, true, "the paper's kind of interval"),
			row(fmt.Sprintf("Nested CV (k = %d): out-of-fold Recall@5, selected hybrid", cv.K), oofH, false, fmt.Sprintf("full-data configuration chosen in %d of %d folds", same, cv.K)),
			row(fmt.Sprintf("Nested CV (k = %d): out-of-fold Recall@5, selected single", cv.K), oofS, false, ""),
			row("Nested CV: out-of-fold gain", oofGain.Interval, true, share(oofGain.Mean)),
			row("Selection-aware bootstrap: in-resample gain", experiment.Interval{Mean: inM, Lo: inLo, Hi: inHi}, true, selectionBootstrapOf),
			row("Selection-aware bootstrap: out-of-bag gain", experiment.Interval{Mean: oobM, Lo: oobLo, Hi: oobHi}, true, share(oobM)+"; scored on the questions each resample left out"),
			row("Table 5: best − "+single.Name, t5[0].Interval, true, "p = "+pCell(t5[0].P)+", Holm p = "+pCell(t5[0].Holm)),
			row("Table 5: best − S-hybrid ("+sh.Name+")", t5[1].Interval, true, "p = "+pCell(t5[1].P)+", Holm p = "+pCell(t5[1].Holm)),
		},
		Notes: []string{
			fmt.Sprintf("Nested CV: questions assigned to %d folds by a seeded permutation (PCG, seed %d, position perm[i] → fold i mod k); on each fold the 126 configurations and the five single retrievers are selected by the paper's rule on the other folds and scored on it. Nothing is fitted, so the inner selection is the training-fold mean.", cv.K, cv.Seed),
			fmt.Sprintf("Selection-aware bootstrap: in each of the B = %d resamples (seed %d) both selections are redone on the drawn questions; the in-resample gain scores them there, the out-of-bag gain on the questions not drawn (about 37%%). Intervals of these rows are percentiles of the resample values.", sb.B, s.Protocol.Seed),
			"Table 5 rows: the paper's two paired comparisons with their bootstrap p-values and Holm's correction across the two. " + s.bootstrapWords() + ".",
		}}
	return t, nil
}

// EvidenceGroupsTable scores every single retriever and the selected hybrid
// by group-level Recall@5 beside chunk-level Recall@5 (EvidenceGroupsSlug).
func (s *Study) EvidenceGroupsTable() (report.Table, bool, error) {
	ev, ok, err := s.evidence()
	if err != nil || !ok {
		return report.Table{}, ok, err
	}
	msgs, err := s.messages()
	if err != nil {
		return report.Table{}, true, err
	}
	_, rep := gold.Resolve(ev, msgs, s.Chunks)
	groups := gold.Groups(rep.Items, s.Qrels)
	singles, err := s.Singles()
	if err != nil {
		return report.Table{}, true, err
	}
	best, _, err := s.Selected()
	if err != nil {
		return report.Table{}, true, err
	}
	evs := append(append([]*experiment.Evaluation(nil), singles...), best)
	qids := best.Result.QIDs
	ix := s.Setup.Indices(len(qids))
	level := bootstrapLevel()
	chunkR, groupR := make([][]float64, len(evs)), make([][]float64, len(evs))
	for i, e := range evs {
		chunkR[i] = e.Result.Scores("recall@5")
		groupR[i] = beyond.GroupScores(groups, e.Run, qids, 5)
	}
	var diffs []*beyond.Diff
	for i := range evs[:len(evs)-1] {
		d := beyond.PairedDiff(ix, groupR[i], groupR[len(evs)-1], level)
		diffs = append(diffs, &d)
	}
	beyond.HolmAll(diffs)
	rank := func(x [][]float64) []int {
		order := allPositions(len(x))
		slices.SortStableFunc(order, func(a, b int) int {
			ma, mb := meanOf(x[a]), meanOf(x[b])
			switch {
			case ma > mb:
				return -1
			case ma < mb:
				return 1
			}
			return 0
		})
		r := make([]int, len(x))
		for pos, i := range order {
			r[i] = pos + 1
		}
		return r
	}
	rc, rg := rank(chunkR), rank(groupR)
	nGroups, nChunks, multi := 0, 0, 0
	for _, q := range qids {
		nGroups += len(groups[q])
		for _, g := range groups[q] {
			nChunks += len(g.ChunkIDs)
			if len(g.ChunkIDs) > 1 {
				multi++
			}
		}
	}
	t := report.Table{Slug: EvidenceGroupsSlug, Caption: "Recall@5 over evidence groups beside chunk-level Recall@5",
		Columns: []string{"Retriever", "Chunk Recall@5 (95% CI)", "Rank", "Group Recall@5 (95% CI)", "Rank", "ΔGroup Recall@5 vs hybrid (95% CI)", "Holm p"},
		// Interval columns fit a one-column page only with the metric name
		// and the selected hybrid short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}, {Full: best.Name, Short: "H"}},
		Notes: []string{
			fmt.Sprintf("A group is a connected set of primary-gold chunks holding the same answer evidence message (overlapping windows, paper §9): %d primary-gold chunks form %d groups over %d questions, %d of them with more than one chunk. Group Recall@5: the share of a question's groups with at least one chunk in the top 5.", nChunks, nGroups, len(qids), multi),
			"Ranks: by mean, 1 = best, ties in row order. Δ: paired difference from the selected hybrid at group level; " + s.bootstrapWords() + ". Holm p: the two-sided paired bootstrap p-value, Holm-adjusted across the five comparisons.",
		}}
	for i, e := range evs {
		name := e.Name
		d, h := "–", "–"
		if i < len(diffs) {
			d, _, h = dCell(diffs[i])
		}
		t.Rows = append(t.Rows, []string{name, ivCell(meanInterval(ix, chunkR[i])), strconv.Itoa(rc[i]), ivCell(meanInterval(ix, groupR[i])), strconv.Itoa(rg[i]), d, h})
	}
	return t, true, nil
}

func meanOf(x []float64) float64 {
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	return sum / float64(max(len(x), 1))
}

func meanInterval(ix interface {
	MeanCI([]float64, float64) (float64, float64, float64)
}, x []float64) experiment.Interval {
	m, lo, hi := ix.MeanCI(x, bootstrapLevel())
	return experiment.Interval{Mean: m, Lo: lo, Hi: hi}
}

// writeBeyond2 writes the round-two tables and the ablation figure. The
// lossless and evidence-group tables need evidence.jsonl and are skipped
// without it.
func (s *Study) writeBeyond2(outDir string) ([]string, error) {
	var tables []report.Table
	for _, f := range []func() (report.Table, error){s.QueryExpansionTable, s.SelectionAwareTable} {
		t, err := f()
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	rows, err := s.Ablation()
	if err != nil {
		return nil, err
	}
	tables = append(tables, s.AblationTableOf(rows))
	for _, f := range []func() (report.Table, bool, error){s.LosslessTable, s.EvidenceGroupsTable} {
		t, ok, err := f()
		if err != nil {
			return nil, err
		}
		if ok {
			tables = append(tables, t)
		}
	}
	var written []string
	for _, t := range tables {
		paths, err := WriteTable(t, outDir)
		written = append(written, paths...)
		if err != nil {
			return written, fmt.Errorf("%s: %w", t.BaseName(), err)
		}
	}
	p, err := AblationFigure(rows)
	if err != nil {
		return written, fmt.Errorf("%s: %w", AblationFigureSlug, err)
	}
	w, h := s.Opts.FigureSize()
	paths, err := report.SaveFigure(p, outDir, AblationFigureSlug, w, h)
	return append(written, paths...), err
}

func bootstrapLevel() float64 { return bootstrap.DefaultLevel }

// beyond2Parameters records the round-two settings in the manifest.
func beyond2Parameters() map[string]any {
	return map[string]any{
		"expanders":           OfflineExpanders,
		"rm3":                 map[string]any{"feedback_docs": expand.DefaultFeedbackDocs, "feedback_terms": expand.DefaultFeedbackTerms, "original_weight": expand.DefaultOriginalWeight},
		"multi_merge":         fmt.Sprintf("rrf K = %d, question weight 1, each of m sub-queries 1/m", retrieval.MultiRRFK),
		"decompose_prompt":    expand.PromptVersion,
		"ablation_variants":   ablationVariantNames(),
		"ablation_methods":    append(append([]string(nil), AblationTokenizers...), beyond.AblationVector),
		"nested_cv_folds":     beyond.NestedFolds,
		"nested_cv_split":     "math/rand/v2 PCG(seed, seed), position Perm(n)[i] → fold i mod k",
		"selection_bootstrap": "selection redone in every resample of the shared B × n matrix; out-of-bag gain on undrawn questions",
		"holm":                "two-sided paired bootstrap p-values, Holm step-down across each table's comparisons",
	}
}

func ablationVariantNames() []string {
	var out []string
	for _, v := range beyond.AblationVariants {
		out = append(out, v.Name)
	}
	return out
}

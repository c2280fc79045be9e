package beyond

import (
	"fmt"
	"slices"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/retrieval"
)

// The retrieval units of the real-conversation study.
const (
	UnitTurn    = "turn"    // one document per message: LoCoMo's dialog, LongMemEval's round
	UnitSession = "session" // one document per 180-minute session (chunking.SessionOptions)
	UnitChunk   = "chunk"   // the paper's 42-message windows under the render limit
)

// UnitOptions returns the chunking of a unit.
func UnitOptions(unit string) (chunking.Options, error) {
	switch unit {
	case UnitTurn:
		return chunking.TurnOptions(), nil
	case UnitSession:
		return chunking.SessionOptions(), nil
	case UnitChunk:
		return chunking.DefaultOptions(), nil
	}
	return chunking.Options{}, fmt.Errorf("unit %q: expected %s, %s or %s", unit, UnitTurn, UnitSession, UnitChunk)
}

// LoCoMoCutoffs are the k of LoCoMo-style recall in the study (LoCoMo's own
// code reports 1, 5, 10, 25, 50 among others).
var LoCoMoCutoffs = []int{1, 5, 10, 25, 50}

// FloorMetrics are the paper's metrics the random-ranking floor is given for.
var FloorMetrics = []string{metrics.Recall5, metrics.Success5, metrics.MRR5}

// UnitInput is one corpus of the study: the messages of one conversation
// (or of all, pooled) cut into one unit, with the paper's questions and
// evidence and, when the data set has them, its native questions and turn
// IDs.
type UnitInput struct {
	Label     string
	Unit      string
	Messages  []chat.Message
	Evidence  []gold.Evidence
	Questions []questions.Question // the paper's retrieval questions
	// Native are the data set's own questions (every category, evidence
	// IDs verbatim) and Keys each message's turn ID; both empty when the
	// data set has none (no LoCoMo-style recall then).
	Native []datasets.NativeQuestion
	Keys   map[string]string
	// Summaries of the study's chunks (by ID), lent to the unit's documents
	// by BorrowSummaries.
	StudyChunks []chat.Chunk
	Summaries   map[string]string
	Protocol    experiment.Protocol
	Folds       int // k of the held-out selection (NestedFolds when 0)
	// Encoder, when set, embeds every unit's documents and questions
	// instead of the LSA fit (a neural model's rows).
	Encoder *Encoder
}

// UnitRow is one retriever on one unit.
type UnitRow struct {
	Retriever string `json:"retriever"`
	// Paper holds the paper's metrics (FloorMetrics) over the questions with
	// primary gold, with question-level intervals.
	Paper map[string]experiment.Interval `json:"paper"`
	// PerQuestion holds the paper's metrics per evaluated question, in
	// UnitResult.QIDs order (pooled over conversations by the caller).
	PerQuestion map[string][]float64 `json:"-"`
	// LoCoMo holds LoCoMoRecall at LoCoMoCutoffs, per native question in
	// UnitResult.NativeQIDs order; empty without native questions.
	LoCoMo [][]float64 `json:"-"`
}

// UnitResult is the protocol run on one unit of one corpus, with its
// random-ranking floor and its hybrid selected in sample and held out.
type UnitResult struct {
	Label      string    `json:"label"`
	Unit       string    `json:"unit"`
	Documents  int       `json:"documents"`
	QIDs       []string  `json:"-"`
	NativeQIDs []string  `json:"-"`
	Rows       []UnitRow `json:"-"` // the protocol's singles, raw_text BM25 with the everyday tokenizer, the selected hybrid
	// Floor holds the expected FloorMetrics and LoCoMo recall of a uniform
	// random ranking of this corpus, per question (same orders as Rows).
	Floor UnitRow `json:"-"`
	// Selected is the sweep's configuration selected on all questions,
	// BestSingle the single retriever with the highest selection metric.
	Selected, BestSingle string
	Selection
	// CV is the k-fold held-out selection within this corpus.
	CV *CrossValidation `json:"-"`
	// UnitRuns holds, at the turn and session units, the runs of raw_text
	// BM25 (the protocol's tokenizer) and of the selected hybrid for every
	// searched question, top max(LoCoMoCutoffs), each hit named by the ID
	// LoCoMo's code compares (turn: the dialog ID; session: "S" and the
	// session number, as LoCoMo writes retrieved sessions), keyed by row
	// label ("raw_text_bm25", "selected"), so LoCoMo's own scoring can be
	// run on them independently.
	UnitRuns map[string]ranking.Run `json:"-"`
	// SearchedQIDs are the questions of UnitRuns, in search order.
	SearchedQIDs []string `json:"-"`
}

// Keys of UnitResult.UnitRuns.
const (
	RunRawBM25  = "raw_text_bm25"
	RunSelected = "selected"
)

// Selection is what the paper's selection rule chooses among on one
// corpus: the selection metric per question of every sweep configuration
// (sweep order) and of every single retriever (protocol order).
type Selection struct {
	Configs, Singles []Candidate
}

// NewSelection reads the candidates of a sweep and the single retrievers'
// evaluations under metric.
func NewSelection(sw *experiment.Sweep, singles []*experiment.Evaluation, metric string) Selection {
	var s Selection
	for _, c := range sw.Configs {
		s.Configs = append(s.Configs, Candidate{Name: c.Name, Pairing: c.Pairing, Scores: c.Result.Scores(metric)})
	}
	for _, e := range singles {
		s.Singles = append(s.Singles, Candidate{Name: e.Name, Scores: e.Result.Scores(metric)})
	}
	return s
}

// RunUnit runs the protocol on one unit of in: the documents are
// in.Messages chunked by UnitOptions(in.Unit), gold is resolved from
// in.Evidence over them, summaries are borrowed from the study's chunks,
// vectors are a fresh LSA fit, or in.Encoder's.
// Every native question is searched too (questions without paper gold get
// runs but no paper metrics). The rows are the protocol's single retrievers,
// raw_text BM25 under the everyday tokenizer (memory.EverydayTokenizer), and
// the hybrid the sweep selects; the floor is computed per question from the
// corpus size and each question's relevant documents (RandomRecall,
// RandomSuccess, RandomMRR; for LoCoMo recall the share of evidence IDs that
// name a document's turn times the chance a random top k reaches one).
// The held-out selection is NestedCV with in.Folds folds from the protocol's
// seed.
func RunUnit(in UnitInput) (*UnitResult, error) {
	opts, err := UnitOptions(in.Unit)
	if err != nil {
		return nil, err
	}
	chunks, err := ChunkAll(in.Messages, opts)
	if err != nil {
		return nil, err
	}
	sums, _ := BorrowSummaries(chunks, in.StudyChunks, in.Summaries)
	qs := searchQuestions(in.Questions, in.Native)
	var vs retrieval.VectorSource
	model := ""
	if in.Encoder != nil {
		v, err := in.Encoder.UnitVectors(chunks, sums, qs)
		if err != nil {
			return nil, err
		}
		vs, model = v, v.Model
	}
	p, err := RunProtocol(ProtocolInput{Label: in.Label + " " + in.Unit, Chunks: chunks, Summaries: sums, Messages: in.Messages,
		Evidence: in.Evidence, Questions: qs, Protocol: in.Protocol, Vectors: vs, Model: model})
	if err != nil {
		return nil, err
	}
	r := &UnitResult{Label: in.Label, Unit: in.Unit, Documents: len(chunks), QIDs: p.Selected.Result.QIDs}
	for _, q := range in.Native {
		r.NativeQIDs = append(r.NativeQIDs, q.QID)
	}
	everyday := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: sums}, nil, retrieval.Options{Tokenizer: memory.EverydayTokenizer("")})
	es := &experiment.Setup{Questions: qs, Qrels: p.Qrels, Builder: everyday, Protocol: in.Protocol}
	rawBM25 := retrieval.Single{Rep: represent.RawText, Method: retrieval.MethodBM25}.Name()
	ev, err := es.Evaluate(rawBM25)
	if err != nil {
		return nil, err
	}
	ev.Name = rawBM25 + " (" + memory.EverydayTokenizer("") + ")"
	evals := append(append([]*experiment.Evaluation{}, p.Singles...), ev, p.Selected)
	units := unitIDs(chunks, in.Unit, in.Keys)
	for _, e := range evals {
		r.Rows = append(r.Rows, unitRow(e, in.Native, units, in.Unit))
	}
	r.Floor = floorRow(p, chunks, in.Native, units, in.Unit)
	if in.Unit != UnitChunk {
		r.SearchedQIDs = p.Outcome.Setup.QIDs()
		r.UnitRuns = map[string]ranking.Run{RunSelected: unitRun(p.Selected.Run, units, in.Unit)}
		for _, e := range p.Singles {
			if e.Name == rawBM25 {
				r.UnitRuns[RunRawBM25] = unitRun(e.Run, units, in.Unit)
			}
		}
	}
	r.Selected = p.Selected.Name
	sw, err := p.Outcome.Sweep()
	if err != nil {
		return nil, err
	}
	r.Selection = NewSelection(sw, p.Singles, in.Protocol.SelectionMetric)
	r.BestSingle = r.Singles[SelectFirstMax(r.Singles, allPositions(len(r.QIDs)))].Name
	if r.CV, err = r.Selection.KFold(in.Folds, in.Protocol.Seed); err != nil {
		return nil, fmt.Errorf("%s %s: %w", in.Label, in.Unit, err)
	}
	return r, nil
}

// KFold is NestedCV of s with k folds (NestedFolds when k is 0; at most one
// fold per question) drawn from seed. Fewer than two questions cannot be
// split: the held-out vectors are then empty.
func (s Selection) KFold(k int, seed uint64) (*CrossValidation, error) {
	if k == 0 {
		k = NestedFolds
	}
	n := 0
	if len(s.Configs) > 0 {
		n = len(s.Configs[0].Scores)
	}
	if n < 2 {
		return &CrossValidation{K: k, Seed: seed}, nil
	}
	return NestedCV(s.Configs, s.Singles, min(k, n), seed)
}

func allPositions(n int) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// searchQuestions is the paper's questions followed by every native
// question not among them (by QID), so runs cover both sets.
func searchQuestions(paper []questions.Question, native []datasets.NativeQuestion) []questions.Question {
	seen := map[string]bool{}
	out := append([]questions.Question{}, paper...)
	for _, q := range paper {
		seen[q.QID] = true
	}
	for _, q := range native {
		if !seen[q.QID] {
			out = append(out, questions.Question{QID: q.QID, Question: q.Question})
			seen[q.QID] = true
		}
	}
	return out
}

// unitIDs maps each document to the IDs LoCoMo's code compares for the unit:
// its turn's ID (turn), its session number read from its first turn's ID by
// metrics.LoCoMoSession (session), or the IDs of all its turns (chunk: LoCoMo
// has no such unit; the recall then counts an evidence ID found when any of
// the top k documents holds its turn).
func unitIDs(chunks []chat.Chunk, unit string, keys map[string]string) map[string][]string {
	out := make(map[string][]string, len(chunks))
	for _, c := range chunks {
		switch unit {
		case UnitSession:
			out[c.ID] = []string{metrics.LoCoMoSession(keys[c.MessageIDs[0]])}
		default:
			for _, m := range c.MessageIDs {
				out[c.ID] = append(out[c.ID], keys[m])
			}
		}
	}
	return out
}

// unitRun renames the hits of run by their unit's ID (see UnitResult.UnitRuns),
// keeping the top max(LoCoMoCutoffs).
func unitRun(run ranking.Run, units map[string][]string, unit string) ranking.Run {
	depth := slices.Max(LoCoMoCutoffs)
	out := make(ranking.Run, len(run))
	for q, hits := range run {
		top := make([]ranking.Hit, 0, min(depth, len(hits)))
		for _, h := range hits[:min(depth, len(hits))] {
			id := units[h.ChunkID][0]
			if unit == UnitSession {
				id = "S" + id
			}
			top = append(top, ranking.Hit{ChunkID: id, Score: h.Score})
		}
		out[q] = top
	}
	return out
}

// nativeEvidence is a native question's evidence as the unit compares it.
func nativeEvidence(q datasets.NativeQuestion, unit string) []string {
	if unit != UnitSession {
		return q.Evidence
	}
	out := make([]string, len(q.Evidence))
	for i, e := range q.Evidence {
		out[i] = metrics.LoCoMoSession(e)
	}
	return out
}

func unitRow(e *experiment.Evaluation, native []datasets.NativeQuestion, units map[string][]string, unit string) UnitRow {
	row := UnitRow{Retriever: e.Name, Paper: map[string]experiment.Interval{}, PerQuestion: map[string][]float64{}}
	for _, m := range FloorMetrics {
		row.Paper[m] = e.CI[m]
		row.PerQuestion[m] = e.Result.Scores(m)
	}
	for _, k := range LoCoMoCutoffs {
		var per []float64
		for _, q := range native {
			per = append(per, locomoAt(e.Run[q.QID], units, nativeEvidence(q, unit), k))
		}
		row.LoCoMo = append(row.LoCoMo, per)
	}
	return row
}

// locomoAt is LoCoMoRecall@k of one ranking: the IDs of the top k documents,
// in rank order, compared with the question's evidence.
func locomoAt(ranked []ranking.Hit, units map[string][]string, evidence []string, k int) float64 {
	var ctx []string
	for _, h := range ranked[:min(k, len(ranked))] {
		ctx = append(ctx, units[h.ChunkID]...)
	}
	return metrics.LoCoMoRecall(ctx, evidence, len(ctx))
}

// floorRow is the expected score of a uniform random ranking of the corpus,
// per question. Paper metrics: n documents, g the question's primary gold
// documents. LoCoMo recall: with |E| evidence IDs, the j-th is found with
// probability RandomSuccess(n, c_j, k), c_j the documents holding its ID
// (0 for an ID that names none), so E[recall] = Σ_j RandomSuccess(n, c_j, k)/|E|
// (1 without evidence, as LoCoMoRecall).
func floorRow(p *Protocol, chunks []chat.Chunk, native []datasets.NativeQuestion, units map[string][]string, unit string) UnitRow {
	n := len(chunks)
	row := UnitRow{Retriever: "random ranking (expected)", Paper: map[string]experiment.Interval{}, PerQuestion: map[string][]float64{}}
	qids := p.Selected.Result.QIDs
	for _, m := range FloorMetrics {
		per := make([]float64, len(qids))
		for i, q := range qids {
			g := metrics.PrimaryGold(p.Qrels[q])
			switch m {
			case metrics.Recall5:
				per[i] = metrics.RandomRecall(n, g, 5)
			case metrics.Success5:
				per[i] = metrics.RandomSuccess(n, g, 5)
			case metrics.MRR5:
				per[i] = metrics.RandomMRR(n, g, 5)
			}
		}
		row.PerQuestion[m] = per
		row.Paper[m] = experiment.Interval{Mean: mean(per), Lo: mean(per), Hi: mean(per)}
	}
	holders := map[string]int{}
	for _, ids := range units {
		seen := map[string]bool{}
		for _, id := range ids {
			if !seen[id] {
				holders[id]++
				seen[id] = true
			}
		}
	}
	for _, k := range LoCoMoCutoffs {
		var per []float64
		for _, q := range native {
			ev := nativeEvidence(q, unit)
			if len(ev) == 0 {
				per = append(per, 1)
				continue
			}
			sum := 0.0
			for _, e := range ev {
				sum += metrics.RandomSuccess(n, holders[e], k)
			}
			per = append(per, sum/float64(len(ev)))
		}
		row.LoCoMo = append(row.LoCoMo, per)
	}
	return row
}

// Gain is a paired difference of per-question selection metrics with its
// percentile bootstrap interval.
type Gain struct {
	Hybrid experiment.Interval `json:"hybrid"`
	Single experiment.Interval `json:"single"`
	Diff   experiment.Interval `json:"diff"`
}

// PairedGain is the mean of hybrid, of single and of hybrid − single over
// the questions, each with its percentile interval at level over the
// resamples of ix (drawn for len(hybrid) questions).
func PairedGain(ix *bootstrap.Indices, hybrid, single []float64, level float64) Gain {
	var g Gain
	g.Hybrid.Mean, g.Hybrid.Lo, g.Hybrid.Hi = ix.MeanCI(hybrid, level)
	g.Single.Mean, g.Single.Lo, g.Single.Hi = ix.MeanCI(single, level)
	g.Diff.Mean, g.Diff.Lo, g.Diff.Hi = ix.PairedDiffCI(hybrid, single, level)
	return g
}

// InSample returns the selected hybrid and the best single retriever scored
// on the questions they were selected on (the paper's rule).
func (s Selection) InSample() (hybrid, single []float64) {
	var n int
	if len(s.Configs) > 0 {
		n = len(s.Configs[0].Scores)
	}
	all := allPositions(n)
	return s.Configs[SelectFirstMax(s.Configs, all)].Scores, s.Singles[SelectFirstMax(s.Singles, all)].Scores
}

// OtherCorpora selects, for each corpus i of rs, the sweep configuration
// and the single retriever with the highest mean over the other corpora of
// their per-corpus mean selection metric (each corpus weighs the same;
// ties: the first in sweep or single order), and returns both scored on
// corpus i's questions. All rs must share the sweep's configuration order
// and single retrievers; a single corpus has no other to select on, so it
// gets none (nil slices).
func OtherCorpora(rs []Selection) (hybrid, single [][]float64, names []string) {
	if len(rs) < 2 {
		return nil, nil, nil
	}
	for i, r := range rs {
		bestH, bestS := -1, -1
		var sumH, sumS float64
		for c := range r.Configs {
			s := 0.0
			for j, o := range rs {
				if j != i {
					s += mean(o.Configs[c].Scores)
				}
			}
			if bestH < 0 || s > sumH {
				bestH, sumH = c, s
			}
		}
		for c := range r.Singles {
			s := 0.0
			for j, o := range rs {
				if j != i {
					s += mean(o.Singles[c].Scores)
				}
			}
			if bestS < 0 || s > sumS {
				bestS, sumS = c, s
			}
		}
		hybrid = append(hybrid, r.Configs[bestH].Scores)
		single = append(single, r.Singles[bestS].Scores)
		names = append(names, r.Configs[bestH].Name)
	}
	return hybrid, single, names
}

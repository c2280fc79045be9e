package analyzers

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
)

// Outcome is what the everyday search and `ask` did with one question.
type Outcome struct {
	QID  string
	Kind string // Answerable, NoAnswer or OtherChats
	// Confidence of the search (0 without results).
	Confidence float64
	// Shown: the first result shows an answer message of the question's
	// evidence (memory.Result.Shown with memory.DefaultContext); Quoted:
	// the extractive `ask` cites one. Answerable questions only.
	Shown, Quoted bool
	// Judged: the question has a relevance-2 window, so Recall5 and
	// Success1 (of the search's windows against the qrels) count.
	Judged            bool
	Recall5, Success1 float64
}

// EverydayRun is every question of one data folder through the everyday
// search, as `linemem search` and `ask` run it on a database holding the
// folder.
type EverydayRun struct {
	Corpus    string
	Retriever string // the everyday default for the folder's database
	Outcomes  []Outcome
}

// EverydayOptions tunes MeasureEveryday.
type EverydayOptions struct {
	// PassageWeight is memory.Options.PassageWeight (0: the default).
	PassageWeight float64
	// TypeWeight is memory.Options.TypeWeight (0: the default; negative:
	// no answer-type prior).
	TypeWeight float64
	// BM25 is memory.Options.BM25 (zero: the default).
	BM25 bm25.Params
	// Work is the folder of the temporary databases; "" = os.TempDir().
	Work string
}

// MeasureEveryday ingests the data folder dir (see the package doc; its
// summaries.jsonl, when there is one, is imported too, so the database
// takes the everyday default it would take for a user) into a temporary
// database and asks every question of questions.jsonl whose evidence names
// an answer message, then noanswer.jsonl's, with memory.DefaultK results and
// the everyday defaults; then, for the first MaxOtherChatSources sources by
// name, the questions whose answers all lie in that source against a
// database of the folder without it. The answer messages come from
// evidence.jsonl resolved against the folder's messages (lib/gold); the
// Recall@5 and Success@1 judgments from qrels.txt, else from that evidence.
func MeasureEveryday(name, dir string, opts EverydayOptions) (*EverydayRun, error) {
	c, err := LoadFolder(name, dir)
	if err != nil {
		return nil, err
	}
	ev, err := gold.ReadEvidenceFile(filepath.Join(dir, "evidence.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("%s: the answer lines come from evidence.jsonl: %w", dir, err)
	}
	_, rep := gold.Resolve(ev, c.Messages, c.Chunks)
	answers := map[string]map[string]bool{}
	sourceOf := map[string]string{}
	for _, m := range c.Messages {
		sourceOf[m.ID] = m.Source
	}
	for _, it := range rep.Items {
		if it.Item.IsAnswer() && it.MessageID != "" {
			if answers[it.QID] == nil {
				answers[it.QID] = map[string]bool{}
			}
			answers[it.QID][it.MessageID] = true
		}
	}
	noAnswer, err := LoadNoAnswer(dir)
	if err != nil {
		return nil, err
	}
	summaries, err := readSummaries(filepath.Join(dir, "summaries.jsonl"))
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp(opts.Work, "everyday-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	inputs, problems := ingest.Collect([]string{filepath.Join(dir, "sources")})
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	tok, err := tokenize.New(memory.EverydayTokenizer(""))
	if err != nil {
		return nil, err
	}
	asker, err := answer.NewExtractiveMethod(tok, answer.MethodCoverage)
	if err != nil {
		return nil, err
	}
	run := &EverydayRun{Corpus: name}
	ask := func(m *memory.Memory, q questions.Question, kind string) (Outcome, error) {
		resp, err := m.Search(context.Background(), memory.Query{Text: q.Question, K: memory.DefaultK})
		if err != nil {
			return Outcome{}, fmt.Errorf("%s %s: %w", name, q.QID, err)
		}
		o := Outcome{QID: q.QID, Kind: kind}
		if resp.Confidence != nil {
			o.Confidence = resp.Confidence.Value
		}
		if kind != Answerable {
			return o, nil
		}
		want := answers[q.QID]
		if len(resp.Results) > 0 {
			first := resp.Results[0]
			for _, i := range first.Shown(memory.DefaultContext) {
				o.Shown = o.Shown || want[first.Messages[i].ID]
			}
		}
		a, err := asker.WithIDF(m.TermIDF()).Answer(context.Background(), q.Question, resp.Results)
		if err != nil {
			return Outcome{}, err
		}
		for _, cit := range a.Citations {
			for _, id := range cit.MessageIDs {
				o.Quoted = o.Quoted || want[id]
			}
		}
		if judged := c.Qrels[q.QID]; hasRel2(judged) {
			o.Judged = true
			ranked := make([]ranking.Hit, len(resp.Results))
			for i, r := range resp.Results {
				ranked[i] = ranking.Hit{ChunkID: r.ChunkID, Score: r.Score}
			}
			r5, _ := metrics.Parse(metrics.Recall5)
			s1, _ := metrics.Parse(metrics.Success1)
			o.Recall5, o.Success1 = r5.Score(ranked, judged), s1.Score(ranked, judged)
		}
		return o, nil
	}
	m, closeDB, err := openFolderDB(filepath.Join(work, "all.db"), inputs, "", summaries, opts)
	if err != nil {
		return nil, err
	}
	run.Retriever = m.Retriever()
	bySource := map[string][]questions.Question{}
	for _, q := range c.Questions {
		if len(answers[q.QID]) == 0 {
			continue
		}
		o, err := ask(m, q, Answerable)
		if err != nil {
			closeDB()
			return nil, err
		}
		run.Outcomes = append(run.Outcomes, o)
		srcs := map[string]bool{}
		for id := range answers[q.QID] {
			srcs[sourceOf[id]] = true
		}
		if len(srcs) == 1 {
			for s := range srcs {
				bySource[s] = append(bySource[s], q)
			}
		}
	}
	for _, q := range noAnswer {
		o, err := ask(m, q, NoAnswer)
		if err != nil {
			closeDB()
			return nil, err
		}
		run.Outcomes = append(run.Outcomes, o)
	}
	closeDB()
	if len(bySource) < 2 {
		return run, nil
	}
	names := make([]string, 0, len(bySource))
	for s := range bySource {
		names = append(names, s)
	}
	sort.Strings(names)
	for i, s := range names[:min(len(names), MaxOtherChatSources)] {
		m, closeDB, err := openFolderDB(filepath.Join(work, fmt.Sprintf("without-%d.db", i)), inputs, s, summaries, opts)
		if err != nil {
			return nil, err
		}
		for _, q := range bySource[s] {
			o, err := ask(m, q, OtherChats)
			if err != nil {
				closeDB()
				return nil, err
			}
			run.Outcomes = append(run.Outcomes, o)
		}
		closeDB()
	}
	return run, nil
}

func hasRel2(judged map[string]int) bool {
	for _, rel := range judged {
		if rel == 2 {
			return true
		}
	}
	return false
}

// openFolderDB ingests inputs, without the source called without (""
// keeps all), into a new database at path, imports the summaries of its
// chunks, and opens its everyday memory.
func openFolderDB(path string, inputs []ingest.Input, without string, summaries map[string]string, opts EverydayOptions) (*memory.Memory, func(), error) {
	st, err := store.Open(path)
	if err != nil {
		return nil, nil, err
	}
	var keep []ingest.Input
	for _, in := range inputs {
		if without == "" || filepath.Base(in.Path) != without {
			keep = append(keep, in)
		}
	}
	var ingestErrs []error
	ingest.Files(st, keep, chunking.DefaultOptions(), func(_ int, in ingest.Input, _ ingest.Report, err error) {
		if err != nil {
			ingestErrs = append(ingestErrs, fmt.Errorf("%s: %w", in.Path, err))
		}
	})
	if ingestErr := errors.Join(ingestErrs...); ingestErr != nil {
		st.Close()
		return nil, nil, ingestErr
	}
	if len(summaries) > 0 {
		chunks, err := st.ChunksWithoutMembers()
		if err != nil {
			st.Close()
			return nil, nil, err
		}
		var rows []store.SummaryRow
		for _, ch := range chunks {
			if s, ok := summaries[ch.ID]; ok {
				rows = append(rows, store.SummaryRow{ChunkID: ch.ID, Summary: s, Origin: store.OriginImport})
			}
		}
		if err := st.PutSummaries(rows); err != nil {
			st.Close()
			return nil, nil, err
		}
	}
	m, err := memory.Open(st, memory.Options{PassageWeight: opts.PassageWeight, TypeWeight: opts.TypeWeight, BM25: opts.BM25})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return m, func() { st.Close() }, nil
}

// readSummaries reads a summaries JSONL file ({"chunk_id", "summary"} per
// line) into a map by chunk ID; a missing file has none.
func readSummaries(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var row struct {
			ChunkID string `json:"chunk_id"`
			Summary string `json:"summary"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil || row.ChunkID == "" {
			return nil, fmt.Errorf("%s:%d: expected {\"chunk_id\", \"summary\"}", path, line)
		}
		out[row.ChunkID] = row.Summary
	}
	return out, sc.Err()
}

// EverydayColumns are the measures of the everyday table, in column order.
var EverydayColumns = []string{"answer line shown first", "answerable flagged", "unanswerable flagged", "ask quotes the answer line", "Recall@5", "Success@1"}

// EverydayRates returns, for run at confidence threshold at, the per-question
// 0/1 (or metric) vectors behind each of EverydayColumns: answerable
// questions for the shown, flagged and quoted shares, the no-answer and
// other-chat questions for the unanswerable flagged share, and the judged
// answerable questions for Recall@5 and Success@1. A question is flagged
// when its confidence is below at.
func (run *EverydayRun) EverydayRates(at float64) [][]float64 {
	out := make([][]float64, len(EverydayColumns))
	b := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	for _, o := range run.Outcomes {
		if o.Kind != Answerable {
			out[2] = append(out[2], b(o.Confidence < at))
			continue
		}
		out[0] = append(out[0], b(o.Shown))
		out[1] = append(out[1], b(o.Confidence < at))
		out[3] = append(out[3], b(o.Quoted))
		if o.Judged {
			out[4] = append(out[4], o.Recall5)
			out[5] = append(out[5], o.Success1)
		}
	}
	return out
}

// Confidences are the run's confidences as the abstention measurement's
// sets (one per kind present), for ChooseThreshold and AbstainReport.
func (run *EverydayRun) Confidences() []Confidences {
	var out []Confidences
	for _, kind := range []string{Answerable, NoAnswer, OtherChats} {
		s := Confidences{Corpus: run.Corpus, Kind: kind}
		for _, o := range run.Outcomes {
			if o.Kind == kind {
				s.Values = append(s.Values, o.Confidence)
			}
		}
		if len(s.Values) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// EverydayReport lays runs out as the everyday table: one row per run, each
// of EverydayColumns as a percentage (Recall@5 and Success@1 as means) with
// its 95% percentile interval over b bootstrap resamples of that column's
// questions (lib/bootstrap, seeded), "—" for a column without questions.
func EverydayReport(runs []*EverydayRun, at float64, b int, seed uint64) report.Table {
	cols := append([]string{"data", "retriever", "answerable", "unanswerable"}, EverydayColumns...)
	rt := report.Table{Slug: "everyday_search", Caption: fmt.Sprintf("The everyday search and ask on each data folder (flagged: confidence below %.2f; 95%% bootstrap intervals)", at), Columns: cols}
	for _, run := range runs {
		rates := run.EverydayRates(at)
		row := []string{run.Corpus, run.Retriever, fmt.Sprint(len(rates[0])), fmt.Sprint(len(rates[2]))}
		for i, x := range rates {
			if len(x) == 0 {
				row = append(row, "—")
				continue
			}
			mean, lo, hi := bootstrap.NewIndices(b, len(x), seed).MeanCI(x, 0.95)
			if i < 4 {
				row = append(row, fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*mean, 100*lo, 100*hi))
			} else {
				row = append(row, fmt.Sprintf("%.3f [%.3f, %.3f]", mean, lo, hi))
			}
		}
		rt.Rows = append(rt.Rows, row)
	}
	rt.Notes = append(rt.Notes,
		"answer line shown first: the first result shows (with its replies, the lines carrying what the question asks for and 2 messages of context) a message the evidence marks as the answer. flagged: the search says the history may not hold the answer. ask quotes the answer line: the extractive ask cites an answer message. Unanswerable: noanswer.jsonl and each question asked against the folder without the chat that answers it.",
		fmt.Sprintf("Intervals: %d resamples of each column's questions, seed %d.", b, seed))
	return rt
}

// Package synth generates linemem's synthetic LINE history: one invented
// user ("自分") chatting for years with a partner, friends, family and club,
// seminar, part-time-job and work groups, exported as JSON-by-date files (spec
// §2), together with 100 evaluation questions, the evidence messages behind
// each question (spec §11), graded gold built from that evidence by lib/gold,
// and one template-written summary per chunk.
//
// Everything is invented. The generator knows, for every message, which
// episode of which life thread it belongs to; questions are planted as
// episodes whose evidence messages it records, and summaries are composed from
// the episodes a chunk covers. Output is a pure function of Config: the same
// seed and scale give the same bytes.
package synth

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// Scales.
const (
	// ScaleSmall is the dataset committed in data/synthetic: big enough that
	// lexical retrieval is not trivial, small enough for tests.
	ScaleSmall = "small"
	// ScalePaper has exactly the paper's message count (PaperMessages).
	ScalePaper = "paper"
)

// Message counts of the scales.
const (
	SmallMessages = 20000
	PaperMessages = 358896 // the paper's Table 1
)

// DefaultSeed is the seed of the committed data/synthetic folder.
const DefaultSeed uint64 = 1

// Config selects a dataset.
type Config struct {
	Seed  uint64
	Scale string // ScaleSmall or ScalePaper
}

// Source is one conversation, exported twice.
type Source struct {
	Name string // file name of the JSON export, e.g. "chat_haruka.json"
	JSON []byte // JSON-by-date export (spec §2), the input of the pipeline
	Text []byte // the same conversation as a LINE .txt export (spec §3)
}

// TextName is the file name of the .txt export: Name with ".txt" for ".json".
func (s Source) TextName() string { return strings.TrimSuffix(s.Name, ".json") + ".txt" }

// Summary is one line of summaries.jsonl (spec §11).
type Summary struct {
	ChunkID string `json:"chunk_id"`
	Summary string `json:"summary"`
}

// Stats are the dataset rows of the paper's Table 1 and a few more.
type Stats struct {
	Sources       int
	Messages      int
	Chunks        int
	Uncovered     int // messages in no chunk (render-limit trimming)
	Questions     int
	ByType        map[string]int // questions per type
	PrimaryGold   int            // (question, chunk) pairs with relevance 2
	SecondaryGold int            // (question, chunk) pairs with relevance 1
	Warnings      int            // reader warnings (unparseable times)
	RawText       Lengths        // raw_text length of the chunks, in characters
	Summary       Lengths        // summary length, in characters
}

// Lengths describes text lengths in characters (code points).
type Lengths struct {
	Mean float64
	P95  int // nearest-rank 95th percentile
	Max  int
}

func describeLengths(ls []int) Lengths {
	if len(ls) == 0 {
		return Lengths{}
	}
	ls = slices.Clone(ls)
	slices.Sort(ls)
	sum := 0
	for _, l := range ls {
		sum += l
	}
	rank := (95*len(ls) + 99) / 100
	return Lengths{Mean: float64(sum) / float64(len(ls)), P95: ls[rank-1], Max: ls[len(ls)-1]}
}

// WriteTable prints the statistics as the rows of the paper's Table 1,
// followed by the rows the synthetic data adds.
func (st Stats) WriteTable(w io.Writer) error {
	var b strings.Builder
	row := func(item string, value any) { fmt.Fprintf(&b, "%-28s %v\n", item, value) }
	row("Item", "Value")
	row("LINE messages", thousands(st.Messages))
	row("Chunks", thousands(st.Chunks))
	row("Evaluation questions", st.Questions)
	row("Main evaluation unit", "chunk")
	row("Question construction", "template-generated (synthetic)")
	row("Gold annotation", "resolved from generator evidence")
	row("Sources", st.Sources)
	row("Questions by type", fmt.Sprintf("named_entity %d, contextual %d, aggregate %d", st.ByType[questions.NamedEntity], st.ByType[questions.Contextual], st.ByType[questions.Aggregate]))
	row("Primary / secondary gold", fmt.Sprintf("%d / %d", st.PrimaryGold, st.SecondaryGold))
	row("Messages in no chunk", st.Uncovered)
	row("Unparseable times", st.Warnings)
	row("raw_text mean / p95 / max", fmt.Sprintf("%.0f / %d / %d", st.RawText.Mean, st.RawText.P95, st.RawText.Max))
	row("summary mean / p95 / max", fmt.Sprintf("%.0f / %d / %d", st.Summary.Mean, st.Summary.P95, st.Summary.Max))
	_, err := io.WriteString(w, b.String())
	return err
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Dataset is a generated corpus with its evaluation material.
type Dataset struct {
	Config    Config
	Sources   []Source // sorted by name
	Questions []questions.Question
	Evidence  []gold.Evidence // in question order
	Qrels     ranking.Qrels   // produced by gold.Resolve from Evidence
	Gold      gold.Report
	Chunks    []chat.Chunk // chunking.Build with default options, sources by name, chunks by index
	Summaries []Summary    // one per chunk, in Chunks order
	Stats     Stats
}

// Generate builds the dataset for cfg. The sources are read back through
// lineexport.ReadJSON and chunked with chunking.DefaultOptions, exactly as
// ingestion does; gold comes from gold.Resolve over those messages and
// chunks. It fails if a question ends up without relevance-2 gold.
func Generate(cfg Config) (*Dataset, error) {
	target := 0
	switch cfg.Scale {
	case ScaleSmall:
		target = SmallMessages
	case ScalePaper:
		target = PaperMessages
	default:
		return nil, fmt.Errorf("synth: scale %q: expected %q or %q", cfg.Scale, ScaleSmall, ScalePaper)
	}
	w := newWorld(cfg, target)
	if err := w.build(); err != nil {
		return nil, err
	}
	ds := &Dataset{Config: cfg}
	var allMsgs []chat.Message
	var allChunks []chat.Chunk
	episodeOf := map[string]int{} // message ID → episode
	for _, src := range w.sources {
		data := src.exportJSON()
		res, err := lineexport.ReadJSON(src.name, bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("synth: reading back %s: %w", src.name, err)
		}
		if len(res.Messages) != len(src.written) {
			return nil, fmt.Errorf("synth: %s: wrote %d messages, read %d", src.name, len(src.written), len(res.Messages))
		}
		ds.Stats.Warnings += len(res.Warnings)
		for i, m := range res.Messages {
			episodeOf[m.ID] = src.written[i].episode
		}
		chunks, err := chunking.Build(res.Messages, chunking.DefaultOptions())
		if err != nil {
			return nil, fmt.Errorf("synth: chunking %s: %w", src.name, err)
		}
		ds.Stats.Uncovered += chunking.Uncovered(res.Messages, chunks)
		ds.Sources = append(ds.Sources, Source{Name: src.name, JSON: data, Text: src.exportText(w.end.Format("2006/01/02") + " 23:59")})
		allMsgs = append(allMsgs, res.Messages...)
		allChunks = append(allChunks, chunks...)
	}
	ds.Questions, ds.Evidence = w.questionsAndEvidence()
	ds.Qrels, ds.Gold = gold.Resolve(ds.Evidence, allMsgs, allChunks)
	if len(ds.Gold.NoPrimary) > 0 {
		var b strings.Builder
		ds.Gold.WriteText(&b)
		return nil, fmt.Errorf("synth: questions without relevance-2 gold: %s\n%s", strings.Join(ds.Gold.NoPrimary, ", "), b.String())
	}
	byID := make(map[string]chat.Message, len(allMsgs))
	for _, m := range allMsgs {
		byID[m.ID] = m
	}
	for _, c := range allChunks {
		ds.Summaries = append(ds.Summaries, Summary{ChunkID: c.ID, Summary: w.summarize(c, byID, episodeOf)})
	}
	ds.Chunks = allChunks
	ds.Stats.Sources = len(ds.Sources)
	ds.Stats.Messages = len(allMsgs)
	ds.Stats.Chunks = len(allChunks)
	ds.Stats.Questions = len(ds.Questions)
	ds.Stats.ByType = map[string]int{}
	for _, q := range ds.Questions {
		ds.Stats.ByType[q.Type]++
	}
	ds.Stats.PrimaryGold, ds.Stats.SecondaryGold = ds.Gold.Rel2, ds.Gold.Rel1
	rawLens := make([]int, len(allChunks))
	sumLens := make([]int, len(allChunks))
	for i, c := range allChunks {
		rawLens[i] = utf8.RuneCountInString(c.RawText)
		sumLens[i] = utf8.RuneCountInString(ds.Summaries[i].Summary)
	}
	ds.Stats.RawText, ds.Stats.Summary = describeLengths(rawLens), describeLengths(sumLens)
	return ds, nil
}

// rngFor returns the generator of one named stream of cfg's seed, so that
// adding draws to one stream leaves the others unchanged.
func rngFor(seed uint64, stream string) *rand.Rand {
	h := uint64(14695981039346656037)
	for i := 0; i < len(stream); i++ {
		h ^= uint64(stream[i])
		h *= 1099511628211
	}
	return rand.New(rand.NewPCG(seed, h))
}

func sortedSourceNames(srcs []*source) []string {
	names := make([]string, len(srcs))
	for i, s := range srcs {
		names[i] = s.name
	}
	slices.Sort(names)
	return names
}

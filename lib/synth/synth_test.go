package synth_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/synth"
	"github.com/linemem/linemem/lib/trec"
)

// committedDir is the checked-in small dataset.
var committedDir = filepath.Join("..", "..", "data", "synthetic")

var small = sync.OnceValues(func() (*synth.Dataset, error) {
	return synth.Generate(synth.Config{Seed: synth.DefaultSeed, Scale: synth.ScaleSmall})
})

func smallDataset(t *testing.T) *synth.Dataset {
	t.Helper()
	ds, err := small()
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestCommittedDataIsRegenerated: data/synthetic holds exactly what
// Generate + WriteDir produce for the default seed, byte for byte; only
// README.md is written by hand.
func TestCommittedDataIsRegenerated(t *testing.T) {
	ds := smallDataset(t)
	dir := t.TempDir()
	if err := ds.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	want := ds.FileNames()
	var committed []string
	err := filepath.WalkDir(committedDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(committedDir, path)
		if rel != "README.md" {
			committed = append(committed, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(committed)
	if !slices.Equal(committed, want) {
		t.Fatalf("data/synthetic holds %v,\nthe generator writes %v", committed, want)
	}
	for _, name := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		have, err := os.ReadFile(filepath.Join(committedDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, have) {
			t.Errorf("%s differs from the generator's output; regenerate with `go run ./cmd/linemem synth --out data/synthetic`", name)
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a := smallDataset(t)
	b, err := synth.Generate(synth.Config{Seed: synth.DefaultSeed, Scale: synth.ScaleSmall})
	if err != nil {
		t.Fatal(err)
	}
	c, err := synth.Generate(synth.Config{Seed: synth.DefaultSeed + 1, Scale: synth.ScaleSmall})
	if err != nil {
		t.Fatal(err)
	}
	same, differ := true, false
	for i := range a.Sources {
		same = same && bytes.Equal(a.Sources[i].JSON, b.Sources[i].JSON)
		differ = differ || !bytes.Equal(a.Sources[i].JSON, c.Sources[i].JSON)
	}
	if !same || !slices.Equal(a.Summaries, b.Summaries) || !slices.Equal(a.Questions, b.Questions) {
		t.Error("two runs with the same seed differ")
	}
	if !differ {
		t.Error("seeds 1 and 2 give the same sources")
	}
}

func TestGenerateRejectsUnknownScale(t *testing.T) {
	if _, err := synth.Generate(synth.Config{Seed: 1, Scale: "huge"}); err == nil {
		t.Error("scale \"huge\" accepted")
	}
}

func TestPaperScale(t *testing.T) {
	if testing.Short() {
		t.Skip("paper scale generates 358,896 messages")
	}
	ds, err := synth.Generate(synth.Config{Seed: synth.DefaultSeed, Scale: synth.ScalePaper})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Stats.Messages != synth.PaperMessages {
		t.Errorf("paper scale has %d messages, want %d", ds.Stats.Messages, synth.PaperMessages)
	}
	const paperChunks, tol = 22329, 0.02 // chunk count is steered, not forced
	if d := float64(ds.Stats.Chunks-paperChunks) / paperChunks; d > tol || d < -tol {
		t.Errorf("paper scale has %d chunks, want within 2%% of %d", ds.Stats.Chunks, paperChunks)
	}
	if ds.Stats.Questions != 100 || len(ds.Gold.NoPrimary) != 0 {
		t.Errorf("%d questions, %d without primary gold", ds.Stats.Questions, len(ds.Gold.NoPrimary))
	}
	if len(ds.Summaries) != ds.Stats.Chunks {
		t.Errorf("%d summaries for %d chunks", len(ds.Summaries), ds.Stats.Chunks)
	}
}

func TestQuestionsAndGold(t *testing.T) {
	ds := smallDataset(t)
	counts := map[string]int{}
	seen := map[string]bool{}
	for _, q := range ds.Questions {
		counts[q.Type]++
		if seen[q.Question] {
			t.Errorf("question asked twice: %s", q.Question)
		}
		seen[q.Question] = true
	}
	if want := map[string]int{questions.NamedEntity: 34, questions.Contextual: 49, questions.Aggregate: 17}; !mapsEqual(counts, want) {
		t.Errorf("questions by type %v, want %v", counts, want)
	}
	if len(ds.Gold.NoPrimary) != 0 || len(ds.Gold.Unchunked) != 0 {
		t.Errorf("questions without primary gold %v, evidence in no chunk %d", ds.Gold.NoPrimary, len(ds.Gold.Unchunked))
	}
	if ds.Gold.Excerpt == 0 || len(ds.Gold.Unmatched) == 0 {
		t.Errorf("evidence exercises no excerpt recovery (%d) or no unmatched item (%d)", ds.Gold.Excerpt, len(ds.Gold.Unmatched))
	}
	if ds.Stats.SecondaryGold == 0 {
		t.Error("no relevance-1 gold")
	}
	for i, ev := range ds.Evidence {
		if ev.QID != ds.Questions[i].QID || ev.Question != ds.Questions[i].Question {
			t.Fatalf("evidence %d is for %s, question is %s", i, ev.QID, ds.Questions[i].QID)
		}
		if ev.Type != questions.Aggregate {
			continue
		}
		sources, dates, primary := map[string]bool{}, map[string]bool{}, 0
		for _, it := range ev.Items {
			if it.IsAnswer() {
				sources[it.Source], dates[it.Date] = true, true
			}
		}
		for _, rel := range ds.Qrels[ev.QID] {
			if rel == 2 {
				primary++
			}
		}
		if len(dates) < 3 || primary < 3 {
			t.Errorf("aggregate %s: answers on %d dates in %d sources, %d primary chunks; want spread evidence", ev.QID, len(dates), len(sources), primary)
		}
	}
}

// TestSourcesReadBackWithQuirks: the exports parse, and carry the quirks a
// real export has.
func TestSourcesReadBackWithQuirks(t *testing.T) {
	ds := smallDataset(t)
	var quirks struct{ system, unknownTime, empty, sticker, photo, call, multiline, url, longSession int }
	for _, src := range ds.Sources {
		res, err := lineexport.ReadJSON(src.Name, bytes.NewReader(src.JSON))
		if err != nil {
			t.Fatal(err)
		}
		run := 1
		for i, m := range res.Messages {
			switch {
			case m.Sender == chat.SystemSender:
				quirks.system++
			case m.Time == "":
				quirks.unknownTime++
			}
			if m.Text == "" {
				quirks.empty++
			}
			switch m.Type {
			case "sticker":
				quirks.sticker++
			case "photo":
				quirks.photo++
			case "call":
				quirks.call++
			}
			if strings.Contains(m.Text, "\n") {
				quirks.multiline++
			}
			if strings.Contains(m.Text, "https://") {
				quirks.url++
			}
			if i > 0 && m.OccurredAt.Sub(res.Messages[i-1].OccurredAt).Minutes() <= chunking.DefaultGapMinutes {
				run++
				if run == chunking.DefaultWindow+1 {
					quirks.longSession++
				}
			} else {
				run = 1
			}
		}
	}
	for name, n := range map[string]int{"system events": quirks.system, "unknown times": quirks.unknownTime, "empty texts": quirks.empty,
		"stickers": quirks.sticker, "photos": quirks.photo, "calls": quirks.call, "multi-line texts": quirks.multiline,
		"URLs": quirks.url, "sessions longer than one window": quirks.longSession} {
		if n == 0 {
			t.Errorf("no %s in the small dataset", name)
		}
	}
	if ds.Stats.RawText.Max <= chunking.DefaultMaxChars || ds.Stats.Uncovered == 0 {
		t.Errorf("no chunk at the render limit (max raw_text %d, %d messages in no chunk)", ds.Stats.RawText.Max, ds.Stats.Uncovered)
	}
}

// TestSummaries: one per chunk, 200–500 characters, and paraphrase rather
// than copy: no summary repeats a 20-character stretch of its chunk's chat.
func TestSummaries(t *testing.T) {
	ds := smallDataset(t)
	if len(ds.Summaries) != len(ds.Chunks) {
		t.Fatalf("%d summaries for %d chunks", len(ds.Summaries), len(ds.Chunks))
	}
	const copied = 20
	for i, s := range ds.Summaries {
		c := ds.Chunks[i]
		if s.ChunkID != c.ID {
			t.Fatalf("summary %d is for %s, chunk is %s", i, s.ChunkID, c.ID)
		}
		if n := utf8.RuneCountInString(s.Summary); n < 200 || n > 500 {
			t.Errorf("chunk %s: summary of %d characters", c.ID, n)
		}
		rs := []rune(s.Summary)
		for j := 0; j+copied <= len(rs); j++ {
			if strings.Contains(c.RawText, string(rs[j:j+copied])) {
				t.Errorf("chunk %s: summary copies %q", c.ID, string(rs[j:j+copied]))
				break
			}
		}
	}
}

// TestQrelsComeFromEvidence: resolving the written evidence against the
// written sources, read and chunked the way ingestion does, gives the written
// qrels.
func TestQrelsComeFromEvidence(t *testing.T) {
	ds := smallDataset(t)
	dir := t.TempDir()
	if err := ds.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	var msgs []chat.Message
	var chunks []chat.Chunk
	for _, name := range ds.FileNames() {
		if filepath.Dir(name) != datafolder.SourcesDir {
			continue
		}
		res, err := lineexport.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := chunking.Build(res.Messages, chunking.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		msgs, chunks = append(msgs, res.Messages...), append(chunks, cs...)
	}
	evidence, err := gold.ReadEvidenceFile(filepath.Join(dir, datafolder.EvidenceFile))
	if err != nil {
		t.Fatal(err)
	}
	qrels, _ := gold.Resolve(evidence, msgs, chunks)
	written, err := trec.ReadQrelsFile(filepath.Join(dir, datafolder.QrelsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !qrelsEqual(qrels, written) {
		t.Error("qrels.txt differs from resolving evidence.jsonl over the sources")
	}
	qs, err := questions.ReadFile(filepath.Join(dir, datafolder.QuestionsFile))
	if err != nil || len(qs) != 100 {
		t.Errorf("questions.jsonl: %d questions, %v", len(qs), err)
	}
	f, err := os.Open(filepath.Join(dir, datafolder.SummariesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	n := 0
	for dec.More() {
		var s synth.Summary
		if err := dec.Decode(&s); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != len(chunks) {
		t.Errorf("summaries.jsonl has %d lines for %d chunks", n, len(chunks))
	}
}

// TestTextExportsMatchJSON: each .txt export reads back (lib/lineexport)
// into the same conversation as its JSON export: same senders, types and
// texts in the same order, on the same dates; times agree wherever the JSON
// export has one.
func TestTextExportsMatchJSON(t *testing.T) {
	ds := smallDataset(t)
	for _, src := range ds.Sources {
		fromJSON, err := lineexport.ReadJSON(src.Name, bytes.NewReader(src.JSON))
		if err != nil {
			t.Fatal(err)
		}
		fromText, err := lineexport.ReadText(src.TextName(), bytes.NewReader(src.Text))
		if err != nil {
			t.Fatal(err)
		}
		if len(fromText.Warnings) > 0 {
			t.Errorf("%s: warnings %v", src.TextName(), fromText.Warnings)
		}
		if len(fromText.Messages) != len(fromJSON.Messages) {
			t.Fatalf("%s: %d messages, JSON export has %d", src.TextName(), len(fromText.Messages), len(fromJSON.Messages))
		}
		for i, a := range fromJSON.Messages {
			b := fromText.Messages[i]
			sameText := a.Text == b.Text || a.Type != chat.TextType && a.Type != "call" && a.Type != "system"
			sameType := a.Type == b.Type || a.Type == "system" && b.Type == chat.TextType // a text export has no system type
			if a.Sender != b.Sender || !sameType || !sameText || a.Date != b.Date || a.Time != "" && a.Time != b.Time {
				t.Fatalf("%s message %d: text export %+v, JSON export %+v", src.TextName(), i, b, a)
			}
		}
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func qrelsEqual(a, b ranking.Qrels) bool {
	if len(a) != len(b) {
		return false
	}
	for q, docs := range a {
		if !mapsEqual(docs, b[q]) {
			return false
		}
	}
	return true
}

func ExampleGenerate() {
	ds, err := synth.Generate(synth.Config{Seed: synth.DefaultSeed, Scale: synth.ScaleSmall})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := ds.Stats.WriteTable(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Item                         Value
	// LINE messages                20,000
	// Chunks                       1,186
	// Evaluation questions         100
	// Main evaluation unit         chunk
	// Question construction        template-generated (synthetic)
	// Gold annotation              resolved from generator evidence
	// Sources                      11
	// Questions by type            named_entity 34, contextual 49, aggregate 17
	// Primary / secondary gold     141 / 43
	// Messages in no chunk         20
	// Unparseable times            5
	// raw_text mean / p95 / max    538 / 1233 / 10711
	// summary mean / p95 / max     292 / 367 / 413
}

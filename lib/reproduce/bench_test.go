package reproduce_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/study"
	"github.com/linemem/linemem/lib/synth"
)

// paperDim is text-embedding-3-small's default dimension.
const paperDim = 1536

// peakRSSMiB reads the process's peak resident set size (VmHWM).
func peakRSSMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkReproducePaperScale runs the whole pipeline, without any API call,
// on the paper-scale synthetic corpus (358,896 messages) with seeded random
// 1,536-dimensional vectors standing in for text-embedding-3-small. It
// reports the seconds of each step and the process's peak RSS.
//
//	go test -run '^$' -bench ReproducePaperScale -benchtime 1x ./lib/reproduce
func BenchmarkReproducePaperScale(b *testing.B) {
	dir := b.TempDir()
	data := filepath.Join(dir, "data")
	start := time.Now()
	ds, err := synth.Generate(synth.Config{Seed: synth.DefaultSeed, Scale: synth.ScalePaper})
	if err != nil {
		b.Fatal(err)
	}
	if err := ds.WriteDir(data); err != nil {
		b.Fatal(err)
	}
	generate := time.Since(start)
	ds = nil
	runtime.GC()
	for i := 0; i < b.N; i++ {
		db := filepath.Join(dir, "paper"+strconv.Itoa(i)+".db")
		st, err := store.Open(db)
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		start = time.Now()
		inputs, problems := ingest.Collect([]string{filepath.Join(data, datafolder.SourcesDir)})
		if len(problems) > 0 {
			b.Fatal(problems[0])
		}
		ingest.Files(st, inputs, chunking.DefaultOptions(), func(_ int, in ingest.Input, _ ingest.Report, err error) {
			if err != nil {
				b.Fatalf("%s: %v", in.Path, err)
			}
		})
		ingestTime := time.Since(start)
		b.StopTimer()
		putRandomVectors(b, st, data)
		st.Close()
		b.StartTimer()
		start = time.Now()
		opts := reproduce.PaperOptions(data, db)
		opts.EmbedModel = "random-1536"
		s, err := reproduce.Prepare(opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.WriteAll(filepath.Join(dir, "results")); err != nil {
			b.Fatal(err)
		}
		total := time.Since(start) + ingestTime
		b.StopTimer()
		b.ReportMetric(generate.Seconds(), "s-generate")
		b.ReportMetric(ingestTime.Seconds(), "s-ingest")
		for _, t := range s.Timings {
			b.ReportMetric(t.Duration.Seconds(), "s-"+strings.Fields(t.Step)[0])
		}
		b.ReportMetric(total.Seconds(), "s-total")
		b.ReportMetric(peakRSSMiB(), "MiB-peak-RSS")
		b.ReportMetric(float64(s.Stats.Chunks), "chunks")
		s.Close()
	}
}

// putRandomVectors stores seeded Gaussian vectors for every chunk of both
// vector representations and every question under model "random-1536".
func putRandomVectors(b *testing.B, st *store.Store, data string) {
	b.Helper()
	chunks, err := st.Chunks()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	vector := func() []float32 {
		v := make([]float32, paperDim)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		return v
	}
	for _, rep := range study.VectorReps {
		rows := make([]store.VectorRow, len(chunks))
		for i, c := range chunks {
			rows[i] = store.VectorRow{Key: c.ID, Vector: vector()}
		}
		if err := st.PutChunkVectors(rep, "random-1536", 2000, rows); err != nil {
			b.Fatal(err)
		}
	}
	qs, err := readQuestions(filepath.Join(data, datafolder.QuestionsFile))
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]store.VectorRow, len(qs))
	for i, q := range qs {
		rows[i] = store.VectorRow{Key: q, Vector: vector()}
	}
	if err := st.PutQueryVectors("random-1536", rows); err != nil {
		b.Fatal(err)
	}
}

func readQuestions(path string) ([]string, error) {
	qs, err := questions.ReadFile(path)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	return texts, nil
}

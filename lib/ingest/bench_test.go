package ingest_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/synth"
)

// cpuSeconds is the user plus system CPU time of the process so far; on a
// shared machine it is steadier than wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// benchmarkFiles times what `linemem ingest --db NEW.db SOURCES` does: the
// JSON exports of a generated corpus (lib/synth) read, chunked and stored
// into a fresh database, one transaction per source, the files prepared on
// every core ahead of the writes (ingest.Files).
func benchmarkFiles(b *testing.B, scale string) {
	ds, err := synth.Generate(synth.Config{Seed: 1, Scale: scale})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, s := range ds.Sources {
		if err := os.WriteFile(filepath.Join(dir, s.Name), s.JSON, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	inputs, problems := ingest.Collect([]string{dir})
	if len(problems) > 0 {
		b.Fatal(problems)
	}
	cpuBefore := cpuSeconds()
	b.ResetTimer()
	for range b.N {
		path := filepath.Join(b.TempDir(), "bench.db")
		st, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ingest.Files(st, inputs, chunking.DefaultOptions(), func(i int, in ingest.Input, rep ingest.Report, err error) {
			if err != nil || rep.Outcome != store.Added {
				b.Fatalf("%s: %v, %v", in.Path, rep.Outcome, err)
			}
		})
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		if fi, err := os.Stat(path); err == nil {
			b.ReportMetric(float64(fi.Size())/(1<<20), "db-MiB")
		}
	}
	b.ReportMetric(float64(ds.Stats.Messages)*float64(b.N)/b.Elapsed().Seconds(), "messages/s")
	b.ReportMetric((cpuSeconds()-cpuBefore)/float64(b.N), "cpu-s/op")
}

// BenchmarkFilesPaperScale ingests the paper-scale corpus (358,896
// messages in 11 exports); run with -benchtime=1x. It matches the ingest
// step of `make bench-e2e` in one process.
func BenchmarkFilesPaperScale(b *testing.B) { benchmarkFiles(b, synth.ScalePaper) }

func BenchmarkFilesSmall(b *testing.B) { benchmarkFiles(b, synth.ScaleSmall) }

package store_test

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/store"
)

// Paper scale (Table 1): 358,896 messages, chunked into 22,329 chunks.
const paperMessages = 358_896

// generateCorpus returns n messages spread over the given number of sources,
// deterministically from seed: sessions of 1–30 messages a few minutes apart,
// separated by gaps of 4–48 hours, so that chunks average about 16 messages as
// in the paper, with short Japanese bodies and the odd photo or unknown time.
func generateCorpus(n, sources int, seed uint64) [][]chat.Message {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	words := []string{"明日", "バイト", "何時", "から", "了解", "です", "ありがと", "駅前", "集合", "ね", "笑", "研究室", "締め切り", "ランチ", "行こう", "かな", "😂", "OK", "週末", "映画"}
	senders := []string{"自分", "さくら", "健太", "母"}
	out := make([][]chat.Message, sources)
	for s := range sources {
		count := n / sources
		if s < n%sources {
			count++
		}
		source := fmt.Sprintf("chat_%02d.json", s)
		at := time.Date(2018, 1, 1, 9, 0, 0, 0, time.UTC)
		msgs := make([]chat.Message, count)
		left := 0
		for i := range msgs {
			if left == 0 {
				left = 1 + rng.IntN(30)
				at = at.Add(time.Duration(4+rng.IntN(44)) * time.Hour)
			} else {
				at = at.Add(time.Duration(rng.IntN(300)) * time.Second)
			}
			left--
			var b strings.Builder
			for range 2 + rng.IntN(8) {
				b.WriteString(words[rng.IntN(len(words))])
			}
			m := chat.Message{Source: source, SourceOrder: i, Date: at.Format(chat.DateLayout), Time: at.Format("15:04:05"),
				OccurredAt: at, Sender: senders[rng.IntN(len(senders))], Type: chat.TextType, Text: b.String()}
			if rng.IntN(50) == 0 {
				m.Type, m.Text = "photo", ""
			}
			m.ID = chat.MessageID(m)
			msgs[i] = m
		}
		out[s] = msgs
	}
	return out
}

// peakRSSMiB reads the process's peak resident set size (VmHWM) from
// /proc/self/status; 0 where that file does not exist.
func peakRSSMiB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kib, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kib / 1024
		}
	}
	return 0
}

// cpuSeconds is the user plus system CPU time of the process so far. On a
// shared machine it is steadier than wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func benchmarkIngest(b *testing.B, messages int) {
	corpus := generateCorpus(messages, 16, 1)
	cpuBefore := cpuSeconds()
	b.ResetTimer()
	for range b.N {
		path := filepath.Join(b.TempDir(), "bench.db")
		st, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		chunks := 0
		for i, msgs := range corpus {
			cs, err := chunking.Build(msgs, chunking.DefaultOptions())
			if err != nil {
				b.Fatal(err)
			}
			if _, err := st.IngestSource(msgs[0].Source, fmt.Sprintf("%064x", i), int64(len(msgs)), chunking.DefaultOptions(), msgs, cs); err != nil {
				b.Fatal(err)
			}
			chunks += len(cs)
		}
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(chunks), "chunks")
		if fi, err := os.Stat(path); err == nil {
			b.ReportMetric(float64(fi.Size())/(1<<20), "db-MiB")
		}
	}
	b.ReportMetric(float64(messages)*float64(b.N)/b.Elapsed().Seconds(), "messages/s")
	b.ReportMetric((cpuSeconds()-cpuBefore)/float64(b.N), "cpu-s/op")
	b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
}

// BenchmarkIngestPaperScale chunks and stores a generated corpus of the
// paper's size; run with -benchtime=1x. The other sizes show how cost grows.
func BenchmarkIngestPaperScale(b *testing.B) { benchmarkIngest(b, paperMessages) }

func BenchmarkIngestSmall(b *testing.B)  { benchmarkIngest(b, 10_000) }
func BenchmarkIngestMedium(b *testing.B) { benchmarkIngest(b, 100_000) }

// BenchmarkImportVectors imports 1,536-d chunk vectors as JSONL (5-decimal
// elements, the paper's vector cache format) for the chunks of a generated
// corpus of 100,000 messages (about 6,000 chunks), a new model each time, in
// one transaction each: parsing on every core, one writer. The command-line
// figure at paper scale is `make bench-e2e`'s `vectors import`.
func BenchmarkImportVectors(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for i, msgs := range generateCorpus(100_000, 4, 1) {
		cs, err := chunking.Build(msgs, chunking.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.IngestSource(msgs[0].Source, fmt.Sprintf("%064x", i), int64(len(msgs)), chunking.DefaultOptions(), msgs, cs); err != nil {
			b.Fatal(err)
		}
	}
	ids, err := st.ChunkIDs()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var file []byte
	for _, id := range ids {
		file = fmt.Appendf(file, `{"key":%q,"vector":[`, id)
		for j := range 1536 {
			if j > 0 {
				file = append(file, ',')
			}
			file = strconv.AppendFloat(file, float64(int(rng.NormFloat64()*2550))/1e5, 'g', -1, 64)
		}
		file = append(file, "]}\n"...)
	}
	b.SetBytes(int64(len(file)))
	cpuBefore := cpuSeconds()
	b.ResetTimer()
	for i := range b.N {
		n, err := st.ImportVectors(store.RepSummary, fmt.Sprintf("m%d", i), 0, "v.jsonl", bytes.NewReader(file))
		if err != nil || n != len(ids) {
			b.Fatalf("imported %d of %d: %v", n, len(ids), err)
		}
	}
	b.ReportMetric(float64(len(ids)), "vectors")
	b.ReportMetric((cpuSeconds()-cpuBefore)/float64(b.N), "cpu-s/op")
}

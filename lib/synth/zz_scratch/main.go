package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/synth"
	"github.com/linemem/linemem/lib/tokenize/paperregex"
	"github.com/linemem/linemem/lib/trec"
)

func main() {
	scale := "small"
	if len(os.Args) > 1 {
		scale = os.Args[1]
	}
	t0 := time.Now()
	seed, _ := strconv.ParseUint(os.Getenv("SEED"), 10, 64)
	ds, err := synth.Generate(synth.Config{Seed: seed, Scale: scale})
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	fmt.Printf("%+v\n%v\n", ds.Stats, time.Since(t0))
	if len(os.Args) > 2 {
		if err := ds.WriteDir(os.Args[2]); err != nil {
			fmt.Println(err)
		}
	}
	ds.Gold.WriteText(os.Stdout)
	sum := map[string]string{}
	for _, s := range ds.Summaries {
		sum[s.ChunkID] = s.Summary
	}
	for _, rep := range []string{"raw_text", "summary", "embedding_text"} {
		var docs []bm25.Doc
		for _, c := range ds.Chunks {
			text := c.RawText
			switch rep {
			case "summary":
				text = sum[c.ID]
			case "embedding_text":
				text = represent.EmbeddingText(sum[c.ID], c.RawText)
			}
			docs = append(docs, bm25.Doc{ID: c.ID, StartAt: c.StartAt, Text: text})
		}
		ix := bm25.New(docs, paperregex.New())
		run := trec.Run{}
		for _, q := range ds.Questions {
			run[q.QID] = ix.Search(q.Question, 200)
		}
		res, err := metrics.Evaluate(ds.Questions, ds.Qrels, run, []string{"recall@5", "mrr@5", "ndcg@5"})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-15s", rep)
		for _, t := range []string{"", "named_entity", "contextual", "aggregate"} {
			var s float64
			n := 0
			idx := res.TypeIndices(t)
			if t == "" {
				idx = nil
				for i := range ds.Questions {
					idx = append(idx, i)
				}
			}
			sc := res.Scores("recall@5")
			for _, i := range idx {
				s += sc[i]
				n++
			}
			fmt.Printf(" %s=%.3f", t, s/float64(n))
		}
		fmt.Println()
		if len(os.Args) > 3 && rep == os.Args[3] {
			sc := res.Scores("recall@5")
			for i, q := range ds.Questions {
				fmt.Printf("%.2f %s %s %v\n", sc[i], q.Type, q.Question, paperregex.New().Tokens(q.Question))
			}
		}
	}
}

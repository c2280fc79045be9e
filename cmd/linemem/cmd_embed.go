package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/job"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/store"
)

func init() {
	register(&command{
		name:    "embed",
		summary: "embed chunk representations and/or questions with a provider",
		usage: `--provider NAME (--rep REP | --queries FILE | both) [--model M] [--allow-remote] [--dry-run]

Providers: openai (Embeddings API, encoding_format=float; remote, but local
when --base-url or OPENAI_BASE_URL names a loopback address such as
http://127.0.0.1:8791/v1, as scripts/use-embedder serves) and lsa
(local latent semantic analysis fitted on this corpus; offline). --rep embeds
every chunk's raw_text, summary or embedding_text that has no vector of the
model yet; --queries FILE embeds each question text of a questions JSONL
verbatim. Inputs longer than --cap characters keep their first and last
cap/2 characters (spec §7); the cap is stored with each vector. The lsa model
is fitted once, on the capped embedding_text of every chunk (raw_text when
some chunk has no summary, or --fit-rep), and stored in the database so later
runs, new chunks and queries use the same model; without --dimensions its
dimension is min(256, chunks, vocabulary terms), so it works from one chunk. Caching, resume, privacy and --dry-run
work as for summarize.`,
		run: runEmbed,
	})
}

func runEmbed(env *environment, c *command, args []string) error {
	var dbPath string
	var rf remoteFlags
	var pf priceFlags
	fs := newFlagSet(env, c, &dbPath)
	rf.bind(fs, 0)
	pf.bind(fs)
	rep := fs.String("rep", "", "representation `REP` to embed: raw_text, summary or embedding_text")
	queriesFile := fs.String("queries", "", "questions JSONL `FILE` whose question texts to embed")
	dims := fs.Int("dimensions", 0, "vector length (openai: sent as dimensions, 0 = model default; lsa: default min(256, chunks, vocabulary terms))")
	inputCap := fs.Int("cap", represent.DefaultEmbeddingCap, "embedding input cap in characters (spec §7)")
	batch := fs.Int("batch", job.DefaultMaxBatch, "inputs per request")
	tokenizer := fs.String("tokenizer", "", "lsa: tokenizer (default char-bigram)")
	vocab := fs.Int("vocab", 0, "lsa: vocabulary size (default 20000)")
	seed := fs.Uint64("seed", 0, "lsa: sketch seed (default 1)")
	fitRep := fs.String("fit-rep", "", "lsa: representation to fit on when no model is stored (default embedding_text, raw_text without summaries)")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if rf.provider == "" {
		return fmt.Errorf("%w: --provider is required (%s)", errUsage, strings.Join(provider.EmbedderNames(), ", "))
	}
	if *rep == "" && *queriesFile == "" {
		return fmt.Errorf("%w: give --rep REP, --queries FILE or both", errUsage)
	}
	if *rep != "" {
		if err := store.ValidRep(*rep); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	if *inputCap < 1 {
		return fmt.Errorf("%w: --cap must be ≥ 1", errUsage)
	}
	var qs []string
	if *queriesFile != "" {
		questionSet, err := questions.ReadFile(*queriesFile)
		if err != nil {
			return err
		}
		qs = make([]string, 0, len(questionSet))
		for _, q := range questionSet {
			qs = append(qs, q.Question)
		}
	}
	red, err := rf.redactor()
	if err != nil {
		return err
	}
	st, cc, err := openStoreAndCache(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := interruptible()
	defer stop()
	opts := rf.options()
	opts.Dimensions = *dims
	opts.Tokenizer, opts.VocabSize, opts.Seed = *tokenizer, *vocab, *seed
	if *rep == represent.Summary || *rep == represent.EmbeddingTextRep {
		if err := needSummaries(st, *rep); err != nil {
			return err
		}
	}
	var local lsa.Prepared
	var emb provider.Embedder
	if rf.provider == lsa.Name {
		if local, err = prepareLSA(ctx, env, st, cc, opts, *fitRep, *inputCap, rf.model); err != nil {
			return err
		}
		emb = local.Model
	} else if emb, err = provider.NewEmbedder(rf.provider, opts); err != nil {
		return err
	}
	var jobs []job.Embeddings
	base := job.Embeddings{Store: st, Embedder: emb, Cap: *inputCap, MaxBatch: *batch, Options: rf.jobOptions(env, cc, red)}
	if *rep != "" {
		j := base
		j.Rep = *rep
		jobs = append(jobs, j)
	}
	if qs != nil {
		j := base
		j.Questions = qs
		jobs = append(jobs, j)
	}
	plans := make([]job.Plan, len(jobs))
	toSend, chars := 0, 0
	for i, j := range jobs {
		if plans[i], err = j.Plan(ctx); err != nil {
			return err
		}
		toSend += plans[i].ToSend
		chars += plans[i].Chars
	}
	if rf.dryRun {
		fmt.Fprintf(env.stdout, "dry run: nothing sent. Destination: %s\n", destination(emb))
		fmt.Fprintf(env.stdout, "redaction: %s\n", red.Describe())
		for i, j := range jobs {
			printPlan(env.stdout, embedWhat(j, emb), plans[i], pf.cost(emb.Model(), emb.Remote(), plans[i].InputTokens, 0), emb.Remote())
		}
		return nil
	}
	var parts []string
	for i, j := range jobs {
		if j.Questions != nil {
			parts = append(parts, fmt.Sprintf("%d question texts", plans[i].ToSend))
		} else {
			parts = append(parts, fmt.Sprintf("the %s of %d chunks", j.Rep, plans[i].ToSend))
		}
	}
	sent := fmt.Sprintf("%s (%d characters in all, each input capped at %d, redaction: %s) for model %s",
		strings.Join(parts, " and "), chars, *inputCap, red.Describe(), emb.Model())
	if err := rf.checkRemote(emb, sent, toSend); err != nil {
		return err
	}
	if err := local.Save(ctx, cc); err != nil {
		return err
	}
	for _, j := range jobs {
		r, runErr := j.Run(ctx)
		r.Write(env.stdout)
		if err := finish(r, runErr); err != nil {
			return err
		}
	}
	return nil
}

func embedWhat(j job.Embeddings, e provider.Embedder) string {
	if j.Questions != nil {
		return fmt.Sprintf("query vectors with %s %s", e.Name(), e.Model())
	}
	return fmt.Sprintf("%s vectors with %s %s", j.Rep, e.Name(), e.Model())
}

// prepareLSA returns the local model of this corpus: the stored one, or one
// fitted now on the capped fitRep of every chunk (lsa.FitTexts) that the
// caller stores once the run proceeds (not on --dry-run). A model the
// database already holds vectors of is reused (lsa.Reuse). Dimension and
// minimum document frequency left unset are chosen from the data, and the
// choice is said.
func prepareLSA(ctx context.Context, env *environment, st *store.Store, cc *cache.Cache, opts provider.Options, fitRep string, inputCap int, model string) (lsa.Prepared, error) {
	chunks, err := st.Chunks()
	if err != nil {
		return lsa.Prepared{}, err
	}
	summaries, err := st.Summaries()
	if err != nil {
		return lsa.Prepared{}, err
	}
	texts, fitRep, err := lsa.FitTexts(chunks, summaries, fitRep, inputCap)
	if err != nil {
		return lsa.Prepared{}, err
	}
	lo := lsa.Options{Tokenizer: opts.Tokenizer, Dimension: opts.Dimensions, VocabSize: opts.VocabSize, Seed: opts.Seed}
	if model == "" {
		stats, err := st.Stats()
		if err != nil {
			return lsa.Prepared{}, err
		}
		var names []string
		for _, set := range stats.VectorSets {
			names = append(names, set.Model)
		}
		if m, found, err := lsa.Reuse(ctx, cc, names, lo); err != nil || found {
			if found {
				fmt.Fprintf(env.stderr, "using the stored local model %s (new chunks are folded in; --dimensions N fits a new one)\n", m.Model())
			}
			return lsa.Prepared{Model: m}, err
		}
	}
	resolved, err := lsa.Resolve(texts, lo)
	if err != nil {
		return lsa.Prepared{}, err
	}
	name := lsa.ModelName(resolved)
	if model != "" && model != name {
		return lsa.Prepared{}, fmt.Errorf("%w: lsa model names encode their options; --model %s does not match %s (set --dimensions, --vocab, --seed, --tokenizer instead)", errUsage, model, name)
	}
	p, err := lsa.Prepare(ctx, cc, texts, lo)
	if err != nil {
		return p, err
	}
	if p.Fresh {
		how := ""
		if opts.Dimensions == 0 && resolved.Dimension < lsa.DefaultDimension {
			how = fmt.Sprintf(" (dimension %d chosen from the data: %d chunks, %d vocabulary terms)", resolved.Dimension, len(texts), len(p.Terms()))
		}
		fmt.Fprintf(env.stderr, "fitting %s on the %s of %d chunks%s …\n", name, fitRep, len(texts), how)
	}
	return p, nil
}

// needSummaries fails with the ways forward when some chunk has no summary,
// so no summary or embedding_text to embed.
func needSummaries(st *store.Store, rep string) error {
	stats, err := st.Stats()
	if err != nil {
		return err
	}
	if missing := stats.Chunks - stats.Summaries; missing > 0 {
		return fmt.Errorf("%d of %d chunks have no summary, so no %s to embed. Offline: embed --rep raw_text instead, or add summaries first with `linemem summarize --provider file --summaries FILE` (or `linemem summaries import FILE`); with a model: `linemem summarize --provider openai --allow-remote`", missing, stats.Chunks, rep)
	}
	return nil
}

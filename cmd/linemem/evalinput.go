package main

import (
	"fmt"

	flag "github.com/spf13/pflag"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/trec"
)

// questionSetFlags are the flags naming a question set: --questions,
// --qrels and --allow-duplicate-qrels, shared by eval, sweep and
// eval-answers.
type questionSetFlags struct {
	questions, qrels string
	allowDuplicates  *bool
}

// bind defines the flags on fs; questionsUsage describes --questions.
func (q *questionSetFlags) bind(fs *flag.FlagSet, questionsUsage string) {
	fs.StringVar(&q.questions, "questions", "", questionsUsage)
	fs.StringVar(&q.qrels, "qrels", "", "TREC qrels `FILE`")
	q.allowDuplicates = allowDuplicateQrelsFlag(fs)
}

// given reports whether both --questions and --qrels are set.
func (q *questionSetFlags) given() bool { return q.questions != "" && q.qrels != "" }

// load reads the questions and qrels (experiment.LoadQuestionSetWith) and
// prints the qrels warnings on stderr; it returns them as text too.
func (q *questionSetFlags) load(env *environment) ([]questions.Question, ranking.Qrels, []string, error) {
	qs, qrels, warnings, err := experiment.LoadQuestionSetWith(q.questions, q.qrels, trec.QrelsOptions{AllowConflicts: *q.allowDuplicates})
	texts := []string{}
	for _, w := range warnings {
		texts = append(texts, fmt.Sprint(&w))
		fmt.Fprintf(env.stderr, "warning: %v\n", &w)
	}
	return qs, qrels, texts, err
}

// allowDuplicateQrelsFlag defines --allow-duplicate-qrels on fs.
func allowDuplicateQrelsFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("allow-duplicate-qrels", false, "keep the last of qrels rows that judge one (qid, chunk_id) differently, with a warning, instead of failing")
}

// evalInput is what eval and sweep work on: the question set, checked to be
// evaluable and to name only chunks of the corpus, and a Setup over the
// store's corpus under the protocol. Close releases the store.
type evalInput struct {
	setup    *experiment.Setup
	model    string   // embedding model of the vectors ("" when none are read)
	warnings []string // the qrels warnings, also printed on stderr
	store    *store.Store
}

// openEvalInput reads the question set of q (experiment.CheckEvaluable), opens
// the database db read-only, checks the qrels against its chunks
// (checkGoldInCorpus) and builds the Setup with proto, whose tokenizer the
// builder uses; needVectors resolves the embedding model (the only one
// stored when opts names none).
func openEvalInput(env *environment, db string, q *questionSetFlags, opts corpusOptions, proto experiment.Protocol, needVectors bool) (*evalInput, error) {
	qs, qrels, warnings, err := q.load(env)
	if err != nil {
		return nil, err
	}
	if err := experiment.CheckEvaluable(qs, qrels, q.questions, q.qrels); err != nil {
		return nil, err
	}
	st, err := openReadOnlyStore(db)
	if err != nil {
		return nil, err
	}
	if err := checkGoldInCorpus(st, q.qrels, qrels); err != nil {
		st.Close()
		return nil, err
	}
	opts.tokenizer = proto.Tokenizer
	builder, model, err := openBuilder(st, opts, needVectors)
	if err != nil {
		st.Close()
		return nil, err
	}
	setup := &experiment.Setup{Questions: qs, Qrels: qrels, Builder: builder, Protocol: proto}
	return &evalInput{setup: setup, model: model, warnings: warnings, store: st}, nil
}

// Close closes the store.
func (in *evalInput) Close() error { return in.store.Close() }

// checkGoldInCorpus refuses qrels whose gold chunk IDs are not all in the
// corpus of st (spec §11), naming the first such line of qrelsPath.
func checkGoldInCorpus(st *store.Store, qrelsPath string, qrels ranking.Qrels) error {
	ids, err := st.ChunkIDs()
	if err != nil {
		return err
	}
	corpus := make(map[string]bool, len(ids))
	for _, id := range ids {
		corpus[id] = true
	}
	return experiment.CheckGoldInCorpus(qrelsPath, qrels, corpus)
}

// answering is what ask and eval-answers work on: the database, the
// everyday memory over it and the answerer (with its remote client, nil
// when the answers are made locally). Close releases the store.
type answering struct {
	store  *store.Store
	memory *memory.Memory
	answer answer.Answerer
	remote *answer.Remote
	// guessedMe is memory.GuessMe's owner when no name says who the person
	// is; "" otherwise.
	guessedMe string
}

// openAnswering opens the database db (openExistingStore), the memory of f
// over it and the answerer of provider name.
func (f *askFlags) openAnswering(env *environment, db, name string) (*answering, error) {
	st, err := openExistingStore(db)
	if err != nil {
		return nil, err
	}
	mem, err := f.openMemory(st)
	if err != nil {
		st.Close()
		return nil, err
	}
	ans, remote, guess, err := f.answerer(env, st, mem, name)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &answering{store: st, memory: mem, answer: ans, remote: remote, guessedMe: guess}, nil
}

// Close closes the store.
func (a *answering) Close() error { return a.store.Close() }

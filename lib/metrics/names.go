package metrics

// Names of the metrics linemem reports, for code that asks for one by name
// (table columns, the selection rule, paired differences). Each is
// "{family}@{k}" of a family in the registry, so Parse accepts it; the
// protocol that decides which of them are reported lives in lib/experiment.
const (
	Recall5   = "recall@5"
	Recall10  = "recall@10"
	Recall20  = "recall@20"
	Recall200 = "recall@200"
	MRR5      = "mrr@5"
	NDCG5     = "ndcg@5"
	Success1  = "success@1"
	Success5  = "success@5"
)

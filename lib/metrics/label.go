package metrics

import "strconv"

// familyLabels are the families' names as tables and figures print them,
// one for every family of the registry (families).
var familyLabels = map[string]string{
	"recall":     "Recall",
	"mrr":        "MRR",
	"success":    "Success",
	"ndcg":       "nDCG",
	"recall_any": "Recall_any",
	"recall_all": "Recall_all",
	"ndcg_any":   "nDCG_any",
}

// Label returns how tables and figures name the metric name: its family's
// label, "@" and its cutoff ("recall@5" → "Recall@5", "ndcg@10" → "nDCG@10",
// "mrr@5" → "MRR@5", "success@1" → "Success@1"). A family without a label
// keeps its registry name; a name Parse rejects is returned unchanged.
func Label(name string) string {
	m, err := Parse(name)
	if err != nil {
		return name
	}
	family, ok := familyLabels[m.Family]
	if !ok {
		family = m.Family
	}
	return family + "@" + strconv.Itoa(m.K)
}

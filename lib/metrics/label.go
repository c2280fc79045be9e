package metrics

import "strconv"

// familyLabels are the families' names as tables and figures print them;
// a family without one prints as it is named.
var familyLabels = map[string]string{
	"recall":  "Recall",
	"mrr":     "MRR",
	"success": "Success",
	"ndcg":    "nDCG",
}

// Label returns how tables and figures name the metric name: its family's
// label, "@" and its cutoff ("recall@5" → "Recall@5", "ndcg@10" → "nDCG@10",
// "mrr@5" → "MRR@5", "success@1" → "Success@1"). A family without a label
// keeps its registry name ("recall_any@5"); a name Parse rejects is
// returned unchanged.
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

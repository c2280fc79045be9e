package metrics

import "strings"

// LoCoMoRecall is retrieval recall exactly as LoCoMo's evaluation code
// computes it (Maharana et al., ACL 2024; snap-research/locomo,
// task_eval/evaluation.py, eval_question_answering, the figure reported as
// "recall" of a RAG run and averaged per category by
// evaluation_stats.analyze_acc):
//
//	recall@k = Σ_{e ∈ E} [e ∈ {u_1 … u_min(k, n)}] / |E|     when |E| > 0
//	recall@k = 1                                              when |E| = 0
//
// E is the question's evidence list as the data set writes it (a list, so a
// repeated ID counts twice) and u_1 … u_n the IDs of the retrieved units,
// best first. IDs are compared as strings, verbatim: an evidence string
// that is not one dialog ID ("D8:6; D9:17", "D:11:26") matches nothing but
// still counts in |E|. A question without evidence scores 1 in
// evaluation.py (its plot in dpr_qa.py adds 0 instead; the reported table
// follows evaluation.py). Every category counts, the adversarial category 5
// included; the overall figure is the mean over all questions. k ≤ 0 finds
// nothing.
//
// For session units LoCoMo compares session numbers: pass
// LoCoMoSession(e) for each evidence ID and the session numbers of the
// retrieved sessions.
func LoCoMoRecall(units, evidence []string, k int) float64 {
	if len(evidence) == 0 {
		return 1
	}
	top := units[:min(max(k, 0), len(units))]
	found := 0
	for _, e := range evidence {
		for _, u := range top {
			if u == e {
				found++
				break
			}
		}
	}
	return float64(found) / float64(len(evidence))
}

// LoCoMoSession is the session number LoCoMo's evaluation code reads from an
// evidence ID: the text before the first ':' without its first character
// (`ev.split(':')[0][1:]`), so "D12:3" → "12" and the malformed "D:11:26"
// → "".
func LoCoMoSession(evidence string) string {
	head, _, _ := strings.Cut(evidence, ":")
	if head == "" {
		return ""
	}
	return head[1:]
}

package reproduce

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
)

// expansionWhat names the offline expanders in captions.
const expansionWhat = "RM3 pseudo-relevance feedback and kagome phrase sub-queries"

// queryExpansionArtefact is the multi-query retrieval table.
var queryExpansionArtefact = tableArtefact(QueryExpansionSlug, NeedsSingles|NeedsSweep, false, queryExpansionTable)

// queryExpansionTable lays beyond.OfflineExpansion out as
// QueryExpansionSlug: multi-query retrieval (the offline expanders over the
// best single retriever and over the selected hybrid) against the selected
// hybrid, overall and on aggregate questions.
func queryExpansionTable(s *Study) (report.Table, error) {
	_, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	exp, names, err := beyond.OfflineExpansion(s.Outcome, s.Store, retrieval.Corpus{Chunks: s.Chunks, Summaries: s.Summaries}, s.EmbedModel)
	if err != nil {
		return report.Table{}, err
	}
	set := beyond.Settings()
	t := report.Table{Slug: QueryExpansionSlug, Caption: "Multi-query retrieval (" + expansionWhat + ") against the selected hybrid",
		Columns: []string{"Questions", "Retriever", "Recall@5 (95% CI)", "Recall@20", "Recall@200", "ΔRecall@5 vs hybrid (95% CI)", "Holm p"},
		// Seven columns with long retriever names fit a one-column page only
		// with the metric name and the selected hybrid short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}, {Full: cfg.Name, Short: "H"}},
		Notes: []string{
			"multi:{expander}:{base} runs the base on the question and on each sub-query (top 200 each) and merges by reciprocal rank fusion, K = 60, the question weighing as much as all its sub-queries together: 1/(60 + r_0) + (1/m)·Σ 1/(60 + r_i).",
			fmt.Sprintf("rm3: relevance model 3 from the top %d embedding_text BM25 chunks, %d feedback terms (with a letter, in at most %.0f%% of chunks), original weight %.1f, one expanded query. phrases: kagome noun runs and content verbs of the question, the first phrase paired with each other one. The LLM decomposer (multi:llm:…, prompt %s) needs --allow-remote and is not part of reproduce.",
				set.FeedbackDocs, set.FeedbackTerms, 100*set.MaxFeedbackDF, set.OriginalWeight, set.PromptVersion),
			"Δ: paired difference from the selected hybrid (" + cfg.Name + "); " + bootstrapWords(s) + "; aggregate rows resample within the type. Recall@20 and Recall@200 show whether the candidates changed.",
		}}
	for _, f := range exp.Families {
		for i, m := range f.Methods {
			d, _, h := dCell(f.Diffs[i])
			sc := f.Scores[i]
			t.Rows = append(t.Rows, []string{fmt.Sprintf("%s (%d)", f.Type, f.Questions), m, ivCell(sc[metrics.Recall5]), report.F3(sc[metrics.Recall20].Mean), report.F3(sc["recall@200"].Mean), d, h})
		}
	}
	var subs []string
	for _, e := range beyond.OfflineExpanders {
		for _, m := range names {
			if n, ok := exp.SubQueries[m]; ok && strings.HasPrefix(m, retrieval.Multi+":"+e+":") {
				subs = append(subs, fmt.Sprintf("%s %s", e, strconv.FormatFloat(n, 'f', 2, 64)))
				break
			}
		}
	}
	t.Notes = append(t.Notes, "Sub-queries per question, on average: "+strings.Join(subs, ", ")+". Holm p: the two-sided paired bootstrap p-value, Holm-adjusted across each question set's comparisons.")
	return t, nil
}

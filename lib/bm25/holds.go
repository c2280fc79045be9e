package bm25

// Holds reports, for each of terms, whether document docID contains it
// (f(t,d) > 0); all false for a document that is not in the index.
func (ix *Index) Holds(docID string, terms []string) []bool {
	out := make([]bool, len(terms))
	d := int32(-1)
	for i := range ix.docs {
		if ix.docs[i].ID == docID {
			d = int32(i)
			break
		}
	}
	if d < 0 {
		return out
	}
	for i, t := range terms {
		for _, p := range ix.postingsOf(t) {
			if p.doc == d {
				out[i] = true
				break
			}
		}
	}
	return out
}

// Together reports whether one document contains every one of terms
// (f(t,d) > 0 for each distinct t): whether their posting lists share a
// document. No terms: false.
func (ix *Index) Together(terms []string) bool {
	distinct := map[string]bool{}
	for _, t := range terms {
		distinct[t] = true
	}
	holding := map[int32]int{} // document → how many of the terms it holds
	for t := range distinct {
		for _, p := range ix.postingsOf(t) {
			holding[p.doc]++
		}
	}
	for _, n := range holding {
		if n == len(distinct) {
			return true
		}
	}
	return false
}

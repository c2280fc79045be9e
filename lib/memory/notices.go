package memory

import (
	"fmt"
	"sort"

	"github.com/linemem/linemem/lib/represent"
)

// NoticeKind is what a notice is about; the kinds are ordered by how much
// they change how the results should be read (noticeOrder).
type NoticeKind string

const (
	// KindNotFound: the search returned nothing.
	KindNotFound NoticeKind = "not-found"
	// KindLowConfidence: the results hold too little of the question
	// (Confidence.Low), so the history may not hold the answer.
	KindLowConfidence NoticeKind = "low-confidence"
	// KindWarning: something may be wrong with the ranking.
	KindWarning NoticeKind = "warning"
	// KindNote: what the search did besides ranking the database's
	// windows by the question.
	KindNote NoticeKind = "note"
)

// The stable codes of the notices Search gives. A front end or a script may
// act on a code; the message is for a person and may be reworded.
const (
	CodeNotFound         = "not-found"          // KindNotFound: no result
	CodeLowConfidence    = "low-confidence"     // KindLowConfidence: confidence below the threshold
	CodeZeroQueryVector  = "zero-query-vector"  // KindWarning: the question's vector is zero
	CodeRemoteQuery      = "remote-query"       // KindNote: the question was sent to a remote model
	CodeLiteralFallback  = "literal-fallback"   // KindNote: the results contain the question's words as written
	CodeFiltersMatchNone = "filters-match-none" // KindNote: windows were found for the question, none passes the filters
	CodeRankedSummaries  = "ranked-summaries"   // KindNote: the windows were ranked by their summaries
	CodeMissingWords     = "missing-words"      // KindNote: words of the question the history never contains, the confidence not low
)

// Notice is one thing a search says beside its results. Every front end
// (search, ask, the web Search page, MCP's search_memory) shows the same
// list, Response.Notices, in its order.
type Notice struct {
	Kind    NoticeKind
	Code    string // one of the Code constants
	Message string
	// Missing are, for KindNotFound, KindLowConfidence and CodeMissingWords,
	// the question's words the history never contains (Confidence.Missing).
	Missing []string
}

// noticeOrder ranks the kinds: not found and low confidence first, then
// warnings, then notes.
var noticeOrder = map[NoticeKind]int{KindNotFound: 0, KindLowConfidence: 1, KindWarning: 2, KindNote: 3}

// sortNotices orders ns by kind (noticeOrder), keeping the order in which
// notices of one kind were given.
func sortNotices(ns []Notice) {
	sort.SliceStable(ns, func(i, j int) bool { return noticeOrder[ns[i].Kind] < noticeOrder[ns[j].Kind] })
}

// warn adds a warning to r's notices and, for callers that read only the
// strings, to r.Warnings.
func (r *Response) warn(code, message string) {
	r.Warnings = append(r.Warnings, message)
	r.Notices = append(r.Notices, Notice{Kind: KindWarning, Code: code, Message: message})
}

// note adds a note to r's notices and to r.Notes.
func (r *Response) note(code, message string) {
	r.Notes = append(r.Notes, message)
	r.Notices = append(r.Notices, Notice{Kind: KindNote, Code: code, Message: message})
}

// confidenceNotice is the notice of a low confidence c of a search with
// results results: KindNotFound when there is none, else KindLowConfidence;
// ok is false when c is not low.
func confidenceNotice(c Confidence, results int) (n Notice, ok bool) {
	switch {
	case !c.Low:
		return Notice{}, false
	case results == 0 && len(c.Missing) == 0:
		return Notice{Kind: KindNotFound, Code: CodeNotFound, Message: fmt.Sprintf("nothing found (confidence %.2f < %.2f)", Shown(c.Value), c.Threshold)}, true
	case results == 0:
		return Notice{Kind: KindNotFound, Code: CodeNotFound, Message: NotFoundNote(c), Missing: c.Missing}, true
	}
	return Notice{Kind: KindLowConfidence, Code: CodeLowConfidence, Message: NotFoundNote(c), Missing: c.Missing}, true
}

// missingNotice is the note of a confidence c that is not low while some
// words of the question occur nowhere in the history: the results hold the
// rest of the question, and the person should know which words found
// nothing ("wifi password at the campsite": the campsite was written about,
// never its wifi). ok is false otherwise.
func missingNotice(c Confidence) (n Notice, ok bool) {
	if c.Low || len(c.Missing) == 0 {
		return Notice{}, false
	}
	return Notice{Kind: KindNote, Code: CodeMissingWords, Message: "the history never contains " + quoteList(c.Missing) + ": the results hold the rest of the question", Missing: c.Missing}, true
}

// filtersNote says that the retriever found n windows for the question
// (for a vector retriever, every window) but none passes the filters.
func filtersNote(n int) string {
	return fmt.Sprintf("none of the %d conversations found for the question passes the filters (source, since, until, sender)", n)
}

// summaryNote says, for a retriever that ranks windows by their summary
// (summary or embedding_text, alone or as a component of a fusion), that
// the ranking read the summaries, so a result may mark no message; "" for
// one that reads the messages.
func (m *Memory) summaryNote() string {
	var reps []string
	if m.spec.Fusion == "" {
		reps = []string{m.spec.Single.Rep}
	} else {
		reps = []string{m.spec.BM25.Rep, m.spec.Vector.Rep}
	}
	for _, rep := range reps {
		if rep == represent.Summary || rep == represent.EmbeddingTextRep {
			return fmt.Sprintf("%s ranks the conversations by their %s, not by the messages alone: a result may mark no message", m.retriever.Name(), rep)
		}
	}
	return ""
}

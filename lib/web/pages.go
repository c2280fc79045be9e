package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/workbench"
)

var funcs = template.FuncMap{
	"marked":     marked,
	"confidence": func(v float64) string { return strconv.FormatFloat(memory.Shown(v), 'f', 2, 64) },
	"shown":      shown,
	"body":       body,
	"ts":         func(t time.Time) string { return t.Format("2006-01-02 15:04") },
	"hm":         func(t time.Time) string { return t.Format("15:04") },
	"day":        func(t time.Time) string { return t.Format("2006-01-02") },
	"stamp":      func(s string) string { return strings.Replace(s, "T", " ", 1)[:min(len(s), 16)] },
	"kappa": func(x float64) string {
		if math.IsNaN(x) {
			return "—"
		}
		return strconv.FormatFloat(x, 'f', 3, 64)
	},
	"pct": func(a, b int) int {
		if b == 0 {
			return 0
		}
		return 100 * a / b
	},
	"relIs": func(rel *int, want int) bool { return rel != nil && *rel == want },
	"add":   func(a, b int) int { return a + b },
	"join":  strings.Join,
	"deref": func(p any) any {
		switch v := p.(type) {
		case *int:
			return *v
		case *bool:
			return *v
		}
		return p
	},
}

// marked escapes text and wraps each span in <mark>.
func marked(text string, spans []memory.Span) template.HTML {
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		if sp.Start < at || sp.End > len(text) || sp.Start >= sp.End {
			continue
		}
		b.WriteString(template.HTMLEscapeString(text[at:sp.Start]))
		b.WriteString("<mark>")
		b.WriteString(template.HTMLEscapeString(text[sp.Start:sp.End]))
		b.WriteString("</mark>")
		at = sp.End
	}
	b.WriteString(template.HTMLEscapeString(text[at:]))
	return template.HTML(b.String())
}

// body is a message's text with its matches marked, or, for a photo,
// sticker, file, call or any other non-text message stored without text,
// its placeholder "[TYPE]" (spec §3) in a span of class "ph".
func body(m memory.Message) template.HTML {
	if m.Text == "" && m.Type != "" && m.Type != "text" {
		return template.HTML(`<span class="ph">[` + template.HTMLEscapeString(m.Type) + `]</span>`)
	}
	return marked(m.Text, m.Matches)
}

// LabelDefinitions are the relevance grades as the paper words them (§4.3).
var LabelDefinitions = [3]string{
	"could not support an answer",
	"supplies supporting information such as a date, person, or background but cannot establish the main answer on its own",
	"alone supports the entire answer or an explicit major part of it",
}

func (s *Server) parseTemplates() error {
	s.pages = map[string]*template.Template{}
	for _, page := range []string{"search.html", "judge_index.html", "judge.html", "agreement.html", "context.html", "history.html", "adjudicate.html"} {
		t, err := template.New(page).Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/messages.html", path.Join("templates", page))
		if err != nil {
			return err
		}
		s.pages[page] = t
	}
	return nil
}

// base is what the layout needs.
type base struct {
	Title     string
	Nav       string
	Token     string
	Annotator string
	Path      string
}

func (s *Server) base(r *http.Request, title, nav string) base {
	return base{Title: title, Nav: nav, Token: s.opts.Token, Annotator: s.annotator(r), Path: r.URL.RequestURI()}
}

func (s *Server) render(w http.ResponseWriter, page, tmpl string, data any) {
	var b bytes.Buffer
	if err := s.pages[page].ExecuteTemplate(&b, tmpl, data); err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// shownMessage is one message a search result shows, with why
// (memory.Result.Role), whether messages are left out before it and, for
// the message after the window, how long after its end it came.
type shownMessage struct {
	memory.Message
	Role  string
	Gap   bool
	After string // memory.Elapsed in Japanese; "" inside the window
}

// shown lists the messages of r the Search page shows: memory.Result.Shown
// with memory.DefaultContext, as `linemem search` and the MCP server show
// them.
func shown(r memory.Result) []shownMessage {
	var out []shownMessage
	prev := -1
	for _, i := range r.Shown(memory.DefaultContext) {
		sm := shownMessage{Message: r.Messages[i], Role: r.Role(i), Gap: prev >= 0 && i > prev+1}
		if sm.Later {
			sm.After = memory.Elapsed(sm.At.Sub(r.EndAt), true)
		}
		out = append(out, sm)
		prev = i
	}
	return out
}

type searchPage struct {
	base
	Query      string
	Retriever  string
	Used       string
	K          int
	Retrievers []string
	Results    []memory.Result
	Confidence *memory.Confidence
	Notices    []memory.Notice // memory.Response.Notices, shown in order
	Error      string
	Elapsed    time.Duration
	Searched   bool
	Filters    memory.Filters // as typed: source (a comma list), since, until, sender
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	p := searchPage{base: s.base(r, "Search", "search"), Query: r.FormValue("q"), Retriever: strings.TrimSpace(r.FormValue("retriever")),
		K: atoiDefault(r.FormValue("k"), DefaultK), Retrievers: s.opts.Retrievers,
		Filters: memory.Filters{Sources: memory.SplitNames(r.FormValue("source")), Since: r.FormValue("since"), Until: r.FormValue("until"), Sender: r.FormValue("sender")}}
	if strings.TrimSpace(p.Query) != "" {
		p.Searched = true
		m, err := s.memory(p.Retriever)
		q := memory.Query{Text: p.Query, K: p.K}
		if err == nil {
			err = m.ParseFilters(&q, p.Filters, nil)
		}
		if err == nil {
			p.Used = m.Retriever()
			start := time.Now()
			var resp memory.Response
			resp, err = m.Search(r.Context(), q)
			p.Elapsed = time.Since(start).Round(time.Microsecond)
			p.Results = resp.Results
			p.Confidence, p.Notices = resp.Confidence, resp.Notices
		}
		if err != nil {
			p.Error = err.Error()
		}
	}
	s.render(w, "search.html", "layout", p)
}

type contextPage struct {
	Before, After []memory.Message
}

// context serves the messages around a chunk (a fragment the Search and
// Judge pages insert on demand).
func (s *Server) context(w http.ResponseWriter, r *http.Request) {
	m, err := s.memory("")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	c, err := m.Chunk(r.PathValue("chunk"))
	if err != nil || len(c.Messages) == 0 {
		http.Error(w, "no such chunk", http.StatusNotFound)
		return
	}
	var p contextPage
	before, err := m.Around(c.Messages[0].ID, ContextBefore, 0)
	if err == nil {
		after, err2 := m.Around(c.Messages[len(c.Messages)-1].ID, 0, ContextAfter)
		err = err2
		p.Before, p.After = trimLast(before), trimFirst(after)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.render(w, "context.html", "context", p)
}

func trimLast(ms []memory.Message) []memory.Message {
	if len(ms) == 0 {
		return ms
	}
	return ms[:len(ms)-1]
}

func trimFirst(ms []memory.Message) []memory.Message {
	if len(ms) == 0 {
		return ms
	}
	return ms[1:]
}

type judgeIndexPage struct {
	base
	Questions []workbench.Progress
	Judged    int
	Rows      int
}

func (s *Server) judgeIndex(w http.ResponseWriter, r *http.Request) {
	p := judgeIndexPage{base: s.base(r, "Judge", "judge")}
	var err error
	if p.Questions, err = s.bench.Progress(p.Annotator); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	for _, q := range p.Questions {
		p.Judged += q.Judged
		p.Rows += q.Rows
	}
	s.render(w, "judge_index.html", "layout", p)
}

type judgeRow struct {
	workbench.Row
	N        int
	Messages []judgeMessage
}

type judgeMessage struct {
	memory.Message
	Evidence bool
}

type judgePage struct {
	base
	View         workbench.QuestionView
	Rows         []judgeRow
	Reveal       bool
	Definitions  [3]string
	NextUnjudged string // the next question (after this one, wrapping) with rows the annotator has not labelled
	Judged, All  int    // the annotator's labelled rows and all rows, every question
}

func (s *Server) judge(w http.ResponseWriter, r *http.Request) {
	p := judgePage{base: s.base(r, "Judge", "judge"), Reveal: r.FormValue("reveal") == "1", Definitions: LabelDefinitions}
	v, err := s.bench.View(p.Annotator, r.PathValue("qid"), p.Reveal)
	if errors.Is(err, workbench.ErrNoQuestion) {
		http.Error(w, "no such pooled question", http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	p.View = v
	ps, err := s.bench.Progress(p.Annotator)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	p.NextUnjudged = nextUnjudged(ps, v.QID)
	for _, q := range ps {
		p.Judged += q.Judged
		p.All += q.Rows
	}
	m, err := s.memory("")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	marker := m.Marker(v.Question.Question)
	for i, row := range v.Rows {
		msgs, err := s.rowMessages(m, row.ChunkID, marker, row.Evidence)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		p.Rows = append(p.Rows, judgeRow{Row: row, N: i + 1, Messages: msgs})
	}
	s.render(w, "judge.html", "layout", p)
}

// nextUnjudged is the first other question after qid in pooling order,
// wrapping around, with fewer labelled rows than rows; "" when there is none.
func nextUnjudged(ps []workbench.Progress, qid string) string {
	at := 0
	for i, p := range ps {
		if p.QID == qid {
			at = i
		}
	}
	for k := 1; k < len(ps); k++ {
		p := ps[(at+k)%len(ps)]
		if p.Judged < p.Rows {
			return p.QID
		}
	}
	return ""
}

// rowMessages returns the messages of a chunk with the question's terms
// marked and evidence messages flagged.
func (s *Server) rowMessages(m *memory.Memory, chunkID string, marker memory.Marker, evidence []string) ([]judgeMessage, error) {
	c, err := m.Chunk(chunkID)
	if err != nil {
		return nil, err
	}
	ev := map[string]bool{}
	for _, id := range evidence {
		ev[id] = true
	}
	out := make([]judgeMessage, 0, len(c.Messages))
	for _, msg := range c.Messages {
		msg.Matches = marker.Spans(msg.Text)
		out = append(out, judgeMessage{Message: msg, Evidence: ev[msg.ID]})
	}
	return out, nil
}

type historyPage struct {
	base
	Events []historyEvent
}

type historyEvent struct {
	workbench.Event
	Before, After string // for a person: a label's relevance, a note, keep or drop; "—" for none
}

// HistoryLimit is how many of the newest events the History page lists.
const HistoryLimit = 500

func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	p := historyPage{base: s.base(r, "History", "history")}
	if p.Annotator != "" {
		evs, err := s.bench.History(p.Annotator, HistoryLimit)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		for _, e := range evs {
			p.Events = append(p.Events, historyEvent{Event: e, Before: eventValue(e.Kind, e.Before), After: eventValue(e.Kind, e.After)})
		}
	}
	s.render(w, "history.html", "layout", p)
}

// eventValue renders an event's JSON value for the History page.
func eventValue(kind, v string) string {
	switch {
	case v == "null" || v == `""`:
		return "—"
	case kind == "label":
		var st struct {
			Rel   *int  `json:"rel"`
			Blind *bool `json:"blind"`
		}
		if json.Unmarshal([]byte(v), &st) != nil || st.Rel == nil {
			return "—"
		}
		out := strconv.Itoa(*st.Rel)
		if st.Blind != nil && !*st.Blind {
			out += " (revealed)"
		}
		return out
	case kind == "decision":
		if v == "true" {
			return "keep"
		}
		return "drop"
	}
	var note string
	if json.Unmarshal([]byte(v), &note) != nil {
		return v
	}
	if r := []rune(note); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return note
}

// AdjudicateRows is how many rows one Adjudicate page lists; more are paged
// (n and p turn the page). A row holds its whole window of messages, so a
// page of 20 stays small enough to open at once.
const AdjudicateRows = 20

// Lists of the Adjudicate page (?show=).
const (
	ShowDisagreements = "disagreements" // rows both annotators labelled differently (the default)
	ShowSingles       = "singles"       // rows only one of them labelled
)

type adjudicatePage struct {
	base
	Annotators  []string
	A, B        string
	Error       string
	Agreement   *workbench.Agreement
	Show        string // ShowDisagreements or ShowSingles
	Open        bool   // only rows without an adjudication that stands
	Rows        []adjudicateRow
	Page, Pages int // from 1
	// Disagreements counts the rows both labelled differently, Decided those
	// of them with an adjudication that stands, Singles the rows one labelled.
	Disagreements, Decided, Singles int
	Obsolete                        []workbench.ObsoleteAdjudication
	Definitions                     [3]string
	Consensus                       string
}

type adjudicateRow struct {
	workbench.AdjudicationRow
	N        int
	Question string
	Answer   string
	Source   string
	StartAt  time.Time
	Messages []judgeMessage
}

// adjudicate serves GET /adjudicate?a=A&b=B[&show=singles][&open=1][&page=N]:
// the consensus of A and B computed as their labels stand now
// (workbench.Bench.Consensus), the disagreements (or the rows one of them
// labelled) AdjudicateRows to a page, with the question, its reference
// answer and the label definitions in the header, and the adjudications a
// later change made obsolete.
func (s *Server) adjudicate(w http.ResponseWriter, r *http.Request) {
	p := adjudicatePage{base: s.base(r, "Adjudicate", "adjudicate"), A: r.FormValue("a"), B: r.FormValue("b"), Consensus: workbench.Consensus,
		Show: ShowDisagreements, Open: r.FormValue("open") == "1", Page: max(1, atoiDefault(r.FormValue("page"), 1)), Definitions: LabelDefinitions}
	if r.FormValue("show") == ShowSingles {
		p.Show = ShowSingles
	}
	all, err := s.bench.Annotators()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	for _, a := range all {
		if a != workbench.Consensus {
			p.Annotators = append(p.Annotators, a)
		}
	}
	if p.A == "" && p.B == "" && len(p.Annotators) >= 2 {
		p.A, p.B = p.Annotators[0], p.Annotators[1]
	}
	if p.A == "" || p.B == "" {
		s.render(w, "adjudicate.html", "layout", p)
		return
	}
	g, err := s.bench.Consensus(p.A, p.B, false)
	if err != nil {
		p.Error = err.Error()
		s.render(w, "adjudicate.html", "layout", p)
		return
	}
	ag, err := s.bench.Agreement(p.A, p.B)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	p.Agreement, p.Obsolete = &ag, g.Obsolete
	p.Disagreements, p.Singles = len(g.Disagreements), len(g.Singles)
	for _, row := range g.Disagreements {
		if row.Consensus != nil {
			p.Decided++
		}
	}
	list := g.Disagreements
	if p.Show == ShowSingles {
		list = g.Singles
	}
	if p.Open {
		var open []workbench.AdjudicationRow
		for _, row := range list {
			if row.Consensus == nil {
				open = append(open, row)
			}
		}
		list = open
	}
	p.Pages = max(1, (len(list)+AdjudicateRows-1)/AdjudicateRows)
	p.Page = min(p.Page, p.Pages)
	first := (p.Page - 1) * AdjudicateRows
	list = list[first:min(len(list), first+AdjudicateRows)]
	qs, err := s.bench.Questions()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	questions := map[string]workbench.Question{}
	for _, q := range qs {
		questions[q.QID] = q
	}
	m, err := s.memory("")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	for i, row := range list {
		c, err := m.Chunk(row.ChunkID)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		q := questions[row.QID]
		msgs, err := s.rowMessages(m, row.ChunkID, m.Marker(q.Question), nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		p.Rows = append(p.Rows, adjudicateRow{AdjudicationRow: row, N: first + i + 1, Question: q.Question, Answer: q.Answer, Source: c.Source, StartAt: c.StartAt, Messages: msgs})
	}
	s.render(w, "adjudicate.html", "layout", p)
}

// URL is the Adjudicate page of p's pair with show, open and page.
func (p adjudicatePage) URL(show string, open bool, page int) string {
	v := url.Values{"a": {p.A}, "b": {p.B}, "show": {show}}
	if open {
		v.Set("open", "1")
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return "/adjudicate?" + v.Encode()
}

type agreementPage struct {
	base
	Annotators []string
	A, B       string
	Same       bool // A and B name one annotator: nothing to compare
	Agreement  *workbench.Agreement
}

func (s *Server) agreement(w http.ResponseWriter, r *http.Request) {
	p := agreementPage{base: s.base(r, "Agreement", "agreement"), A: r.FormValue("a"), B: r.FormValue("b")}
	var err error
	if p.Annotators, err = s.bench.Annotators(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if p.A == "" && p.B == "" {
		var people []string
		for _, a := range p.Annotators {
			if a != workbench.Consensus {
				people = append(people, a)
			}
		}
		if len(people) >= 2 {
			p.A, p.B = people[0], people[1]
		}
	}
	if p.A != "" && p.A == p.B {
		p.Same = true
	} else if p.A != "" && p.B != "" {
		ag, err := s.bench.Agreement(p.A, p.B)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		p.Agreement = &ag
	}
	s.render(w, "agreement.html", "layout", p)
}

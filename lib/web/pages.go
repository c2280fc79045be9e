package web

import (
	"bytes"
	"errors"
	"html/template"
	"math"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/workbench"
)

var funcs = template.FuncMap{
	"marked": marked,
	"ts":     func(t time.Time) string { return t.Format("2006-01-02 15:04") },
	"hm":     func(t time.Time) string { return t.Format("15:04") },
	"day":    func(t time.Time) string { return t.Format("2006-01-02") },
	"stamp":  func(s string) string { return strings.Replace(s, "T", " ", 1)[:min(len(s), 16)] },
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

func (s *Server) parseTemplates() error {
	s.pages = map[string]*template.Template{}
	for _, page := range []string{"search.html", "judge_index.html", "judge.html", "agreement.html", "context.html"} {
		t, err := template.New(page).Funcs(funcs).ParseFS(files, "templates/layout.html", path.Join("templates", page))
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

type searchPage struct {
	base
	Query      string
	Retriever  string
	Used       string
	K          int
	Retrievers []string
	Results    []memory.Result
	Confidence *memory.Confidence
	NotFound   string // memory.NotFoundNote when the confidence is low
	Error      string
	Elapsed    time.Duration
	Searched   bool
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	p := searchPage{base: s.base(r, "Search", "search"), Query: r.FormValue("q"), Retriever: strings.TrimSpace(r.FormValue("retriever")),
		K: atoiDefault(r.FormValue("k"), DefaultK), Retrievers: s.opts.Retrievers}
	if strings.TrimSpace(p.Query) != "" {
		p.Searched = true
		m, err := s.memory(p.Retriever)
		if err == nil {
			p.Used = m.Retriever()
			start := time.Now()
			var resp memory.Response
			resp, err = m.Search(r.Context(), memory.Query{Text: p.Query, K: p.K})
			p.Elapsed = time.Since(start).Round(time.Microsecond)
			p.Results = resp.Results
			if p.Confidence = resp.Confidence; p.Confidence != nil && p.Confidence.Low {
				p.NotFound = memory.NotFoundNote(*p.Confidence)
			}
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
	View   workbench.QuestionView
	Rows   []judgeRow
	Reveal bool
}

func (s *Server) judge(w http.ResponseWriter, r *http.Request) {
	p := judgePage{base: s.base(r, "Judge", "judge"), Reveal: r.FormValue("reveal") == "1"}
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
	m, err := s.memory("")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	marker := memory.NewMarker(s.tok, v.Question.Question)
	for i, row := range v.Rows {
		c, err := m.Chunk(row.ChunkID)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		ev := map[string]bool{}
		for _, id := range row.Evidence {
			ev[id] = true
		}
		jr := judgeRow{Row: row, N: i + 1}
		for _, msg := range c.Messages {
			msg.Matches = marker.Spans(msg.Text)
			jr.Messages = append(jr.Messages, judgeMessage{Message: msg, Evidence: ev[msg.ID]})
		}
		p.Rows = append(p.Rows, jr)
	}
	s.render(w, "judge.html", "layout", p)
}

type agreementPage struct {
	base
	Annotators []string
	A, B       string
	Agreement  *workbench.Agreement
}

func (s *Server) agreement(w http.ResponseWriter, r *http.Request) {
	p := agreementPage{base: s.base(r, "Agreement", "agreement"), A: r.FormValue("a"), B: r.FormValue("b")}
	var err error
	if p.Annotators, err = s.bench.Annotators(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if p.A == "" && p.B == "" && len(p.Annotators) >= 2 {
		p.A, p.B = p.Annotators[0], p.Annotators[1]
	}
	if p.A != "" && p.B != "" {
		ag, err := s.bench.Agreement(p.A, p.B)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		p.Agreement = &ag
	}
	s.render(w, "agreement.html", "layout", p)
}

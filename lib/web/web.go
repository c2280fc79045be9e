// Package web is the local web app of `linemem serve`: a Search page over
// the everyday memory (lib/memory), a Judge page that labels the pooled
// candidates of lib/workbench, a History page of the annotator's changes, an
// Agreement page for two annotators and an Adjudicate page for their
// disagreements.
//
// It is built from net/http (ServeMux patterns such as `GET /judge/{qid}`),
// html/template (every message is escaped; matched terms and evidence
// messages are marked with <mark> around escaped text) and assets embedded
// with go:embed, so the pages work with the network unplugged.
//
// Safety. Every POST carries the server's CSRF token (header X-CSRF-Token or
// form field csrf, compared in constant time), and a POST another site sent
// is refused (lib/loopback: Go's http.CrossOriginProtection). A request whose
// Host is neither a loopback name nor one of AllowedHosts is refused with
// loopback.HostRefused, whatever address the server listens on (a
// DNS-rebinding page cannot reach the app). A body over MaxRequestBody bytes is answered 413 naming the
// limit. The annotator form's "back" target is followed only when it is a
// path on this site: "/" not followed by "/" or a backslash, and no control
// character. /assets/ serves files, never a folder listing. Every string a
// person or a chat supplied (names, messages, questions, notes) is rendered
// inside <bdi> or with dir="auto", so a stray right-to-left mark cannot
// reverse the rest of a line. Request logs hold the method, the route
// pattern, the status and the duration only: never a query string, a
// question or a message.
//
// Judging. The annotator's name lives in a cookie, held on every write to
// the name rule of the form (workbench.CheckPerson); each label, note and
// keep/drop is its own small POST, sent in key order and stored at once (a
// killed server loses nothing) with blind/revealed, the seconds the row was
// current and the part of them with the sources hidden. Rows are shown
// blind unless ?reveal=1 (the evidence box, origins and evidence marks only
// then); the page swaps them in and out without a reload, so the row's timer
// runs on, and keeps each row's times across reloads in the tab's session
// storage. POST /api/undo and /api/redo walk the annotator's stored history
// (workbench.Bench.Undo) and answer with the counters; GET /history lists
// it.
// GET /adjudicate?a=A&b=B lists the rows A and B labelled differently (the
// consensus computed at each load, paged; ?show=singles the rows one of them
// labelled) and POST /api/adjudicate writes the consensus annotator's label. A write the workbench
// refuses (an unknown question, a chunk outside the question's pool, a
// relevance other than 0, 1 or 2) stores nothing and is answered 404 or 400
// with {"error": "…"}.
//
// Imports: lib/loopback, lib/memory, lib/workbench, lib/store and the
// standard library.
package web

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/loopback"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/workbench"
)

//go:embed assets templates
var files embed.FS

// Defaults of the pages.
const (
	DefaultK      = memory.DefaultK // results on the Search page, as `search`
	ContextBefore = 5               // messages shown before a chunk on demand
	ContextAfter  = 5               // and after it
	annotatorKey  = "linemem_annotator"
	csrfHeader    = "X-CSRF-Token"
)

// MaxRequestBody is the largest request body accepted: room for a note of
// workbench.MaxNoteBytes written with JSON escapes, and the rest of the row.
const MaxRequestBody = 2*workbench.MaxNoteBytes + 64<<10

// Options configures a Server.
type Options struct {
	Store *store.Store // required
	// OpenMemory opens the everyday search with a retriever ("" = its
	// default). nil means memory.Open(Store, memory.Options{Retriever: name}).
	// The memories opened are kept in a memory.Pool: reopened when another
	// process writes chunks, summaries or vectors.
	OpenMemory func(retriever string) (*memory.Memory, error)
	// Retrievers are offered on the Search page besides the default.
	Retrievers []string
	// AllowedHosts are the Host names (without port, compared case
	// insensitively) accepted besides loopback names: the names a server
	// started with --public is reached by.
	AllowedHosts []string
	// Log receives one line per request; nil = none.
	Log *log.Logger
	// Token is the CSRF token; "" = a random one.
	Token string
}

// Server is the web app; it is an http.Handler.
type Server struct {
	opts  Options
	bench *workbench.Bench
	mux   *http.ServeMux
	pages map[string]*template.Template

	memories *memory.Pool
}

// New builds the server.
func New(opts Options) (*Server, error) {
	if opts.Store == nil {
		return nil, errors.New("web: Options.Store is nil")
	}
	if opts.Token == "" {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		opts.Token = hex.EncodeToString(b)
	}
	s := &Server{opts: opts, bench: workbench.Open(opts.Store), mux: http.NewServeMux(), memories: memory.NewPool(opts.Store, opts.OpenMemory)}
	if err := s.parseTemplates(); err != nil {
		return nil, err
	}
	assets, _ := fs.Sub(files, "assets")
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", noListing(assets)))
	s.mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "max-age=86400")
		http.ServeFileFS(w, r, assets, "favicon.svg")
	})
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/search", http.StatusSeeOther) })
	s.mux.HandleFunc("GET /search", s.search)
	s.mux.HandleFunc("GET /context/{chunk}", s.context)
	s.mux.HandleFunc("GET /judge", s.judgeIndex)
	s.mux.HandleFunc("GET /judge/{qid}", s.judge)
	s.mux.HandleFunc("GET /agreement", s.agreement)
	s.mux.HandleFunc("POST /annotator", s.setAnnotator)
	s.mux.HandleFunc("POST /api/label", s.label)
	s.mux.HandleFunc("POST /api/note", s.note)
	s.mux.HandleFunc("POST /api/decide", s.decide)
	s.mux.HandleFunc("POST /api/undo", s.undoRedo((*workbench.Bench).Undo))
	s.mux.HandleFunc("POST /api/redo", s.undoRedo((*workbench.Bench).Redo))
	s.mux.HandleFunc("GET /history", s.history)
	s.mux.HandleFunc("GET /adjudicate", s.adjudicate)
	s.mux.HandleFunc("POST /api/adjudicate", s.adjudicateRow)
	return s, nil
}

// Token is the CSRF token every POST must carry.
func (s *Server) Token() string { return s.opts.Token }

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// ServeHTTP checks the Host and the CSRF token, serves the request and logs
// its method, route pattern, status and duration.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	w = sw
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
	w.Header().Set("Referrer-Policy", "no-referrer")
	pattern := ""
	r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBody)
	switch {
	case !s.allowedHost(r.Host):
		http.Error(w, loopback.HostRefused(r.Host, "serve --allowed-host"), http.StatusForbidden)
	case r.Method == http.MethodPost && loopback.CrossSite(r) != nil:
		http.Error(w, "a request from another site is refused", http.StatusForbidden)
	case r.Method == http.MethodPost && r.ContentLength > MaxRequestBody:
		tooLarge(w)
	case r.Method == http.MethodPost && !s.validToken(w, r):
		if !bodyTooLarge(r) {
			http.Error(w, "missing or wrong CSRF token; reload the page", http.StatusForbidden)
		}
	default:
		_, pattern = s.mux.Handler(r)
		s.mux.ServeHTTP(w, r)
	}
	if s.opts.Log != nil {
		if pattern == "" {
			pattern = r.Method + " -"
		}
		s.opts.Log.Printf("%s %d %s", pattern, sw.status, time.Since(start).Round(time.Microsecond))
	}
}

// validToken reports whether r carries the CSRF token. A form body over the
// limit is answered 413 here (bodyTooLarge then reports it).
func (s *Server) validToken(w http.ResponseWriter, r *http.Request) bool {
	got := r.Header.Get(csrfHeader)
	if got == "" && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if err := r.ParseForm(); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				r.Header.Set(tooLargeMark, "1")
				tooLarge(w)
			}
			return false
		}
		got = r.PostFormValue("csrf")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
}

// tooLargeMark is set on a request whose body validToken found over the limit.
const tooLargeMark = "X-Linemem-Too-Large"

func bodyTooLarge(r *http.Request) bool { return r.Header.Get(tooLargeMark) != "" }

// tooLarge answers 413 naming the limit.
func tooLarge(w http.ResponseWriter) {
	apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over the limit of %d bytes (%d MiB); a note may hold up to %d bytes", MaxRequestBody, MaxRequestBody>>20, workbench.MaxNoteBytes))
}

// allowedHost reports whether a Host header names this machine's loopback
// or one of Options.AllowedHosts (loopback.HostAllowed).
func (s *Server) allowedHost(host string) bool {
	return loopback.HostAllowed(host, s.opts.AllowedHosts)
}

// noListing serves the files of fsys and answers 404 for a folder.
func noListing(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if st, err := fs.Stat(fsys, name); name == "" || strings.HasSuffix(name, "/") || err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// SafeBack returns back when it is a path on this site, "/" followed by
// neither "/" nor a backslash (which a browser reads as another host) and holding
// no control character (which a browser drops before reading it); fallback
// otherwise.
func SafeBack(back, fallback string) string {
	if len(back) == 0 || back[0] != '/' || (len(back) > 1 && (back[1] == '/' || back[1] == '\\')) {
		return fallback
	}
	for _, c := range back {
		if c < 0x20 || c == 0x7f {
			return fallback
		}
	}
	return back
}

// IsLoopback reports whether addr (HOST:PORT) binds a loopback address only
// (loopback.IsLoopbackAddr).
func IsLoopback(addr string) (bool, error) { return loopback.IsLoopbackAddr(addr) }

// memory returns the everyday search with retriever name as the database
// is now (memory.Pool).
func (s *Server) memory(name string) (*memory.Memory, error) { return s.memories.Get(name) }

func (s *Server) annotator(r *http.Request) string {
	c, err := r.Cookie(annotatorKey)
	if err != nil {
		return ""
	}
	name, err := url.QueryUnescape(c.Value)
	if err != nil {
		return ""
	}
	return name
}

func (s *Server) setAnnotator(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PostFormValue("annotator"))
	if err := workbench.CheckPerson(name); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: annotatorKey, Value: url.QueryEscape(name), Path: "/", SameSite: http.SameSiteStrictMode, HttpOnly: true, MaxAge: 365 * 24 * 3600})
	http.Redirect(w, r, SafeBack(r.PostFormValue("back"), "/judge"), http.StatusSeeOther)
}

// writer returns the annotator an API write is made as: the cookie's name,
// held to the rule the annotator form applies (workbench.CheckPerson), so a
// forged cookie can neither write as the consensus nor store a name the
// command line cannot name. A refusal is answered 400.
func (s *Server) writer(w http.ResponseWriter, r *http.Request) (string, bool) {
	ann := s.annotator(r)
	if ann == "" {
		apiError(w, http.StatusBadRequest, "set your annotator name first")
		return "", false
	}
	if err := workbench.CheckPerson(ann); err != nil {
		apiError(w, http.StatusBadRequest, "the annotator cookie: "+err.Error()+"; set your name again on the Judge page")
		return "", false
	}
	return ann, true
}

type apiRow struct {
	QID     string   `json:"qid"`
	ChunkID string   `json:"chunk_id"`
	Rel     *int     `json:"rel"`
	Note    *string  `json:"note"`
	Keep    *bool    `json:"keep"`
	Blind   *bool    `json:"blind"`   // label: judged with the sources hidden
	Seconds *float64 `json:"seconds"` // label: time spent on the row
	// BlindSeconds is, of Seconds, the time spent with the sources hidden.
	BlindSeconds *float64 `json:"blind_seconds"`
	A            string   `json:"a"` // adjudication: the two annotators
	B            string   `json:"b"`
}

func (s *Server) readAPI(w http.ResponseWriter, r *http.Request) (apiRow, string, bool) {
	var row apiRow
	ann, ok := s.writer(w, r)
	if !ok {
		return row, "", false
	}
	body, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		tooLarge(w)
		return row, "", false
	}
	if err == nil {
		err = json.Unmarshal(body, &row)
	}
	if err != nil {
		apiError(w, http.StatusBadRequest, "a JSON object {qid, chunk_id, rel | note | keep}")
		return row, "", false
	}
	return row, ann, true
}

// benchError answers a write the workbench refused: 404 for an unknown
// question, chunk or pool row, 400 for anything else.
func benchError(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	if errors.Is(err, workbench.ErrUnknown) {
		status = http.StatusNotFound
	}
	apiError(w, status, err.Error())
}

// apiError answers an API request with status and the JSON object
// {"error": msg}.
func apiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{msg})
}

func (s *Server) label(w http.ResponseWriter, r *http.Request) {
	row, ann, ok := s.readAPI(w, r)
	if !ok {
		return
	}
	if err := s.bench.LabelAs(ann, row.QID, row.ChunkID, row.Rel, workbench.Judging{Blind: row.Blind, Seconds: row.Seconds, BlindSeconds: row.BlindSeconds}); err != nil {
		benchError(w, err)
		return
	}
	s.progress(w, ann, row.QID)
}

func (s *Server) note(w http.ResponseWriter, r *http.Request) {
	row, ann, ok := s.readAPI(w, r)
	if !ok {
		return
	}
	note := ""
	if row.Note != nil {
		note = *row.Note
	}
	if len(note) > workbench.MaxNoteBytes {
		apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a note may hold up to %d bytes (1 MiB), this one has %d", workbench.MaxNoteBytes, len(note)))
		return
	}
	if err := s.bench.Note(ann, row.QID, row.ChunkID, note); err != nil {
		benchError(w, err)
		return
	}
	s.progress(w, ann, row.QID)
}

func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	row, ann, ok := s.readAPI(w, r)
	if !ok {
		return
	}
	if err := s.bench.Decide(ann, row.QID, row.Keep); err != nil {
		benchError(w, err)
		return
	}
	s.progress(w, ann, row.QID)
}

// undoRedo answers POST /api/undo or /api/redo: step (Bench.Undo or
// Bench.Redo) applied to the annotator's history, then the row or question
// the event was about as it now stands: {"done": false} when there was
// nothing to take back or apply, else {"done": true, "qid", "chunk_id",
// "kind", "rel", "note", "keep"} and the counts a label write answers with
// ("question", "all").
func (s *Server) undoRedo(step func(*workbench.Bench, string) (workbench.Event, bool, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ann, ok := s.writer(w, r)
		if !ok {
			return
		}
		ev, ok, err := step(s.bench, ann)
		if err != nil {
			apiError(w, http.StatusInternalServerError, err.Error())
			return
		}
		out := struct {
			Done    bool   `json:"done"`
			QID     string `json:"qid,omitempty"`
			ChunkID string `json:"chunk_id,omitempty"`
			Kind    string `json:"kind,omitempty"`
			Rel     *int   `json:"rel"`
			Note    string `json:"note"`
			Keep    *bool  `json:"keep"`
			progressCounts
		}{Done: ok, QID: ev.QID, ChunkID: ev.ChunkID, Kind: ev.Kind}
		if ok {
			if out.progressCounts, err = s.counts(ann, ev.QID); err != nil {
				apiError(w, http.StatusInternalServerError, err.Error())
				return
			}
			v, err := s.bench.View(ann, ev.QID, false)
			if err != nil {
				apiError(w, http.StatusInternalServerError, err.Error())
				return
			}
			out.Keep = v.Keep
			for _, row := range v.Rows {
				if row.ChunkID == ev.ChunkID {
					out.Rel, out.Note = row.Rel, row.Note
				}
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	}
}

// adjudicateRow answers POST /api/adjudicate {a, b, qid, chunk_id, rel}:
// the consensus label of a row where a and b differ, answered with the
// progress over the disagreements {"decided", "disagreements"}.
func (s *Server) adjudicateRow(w http.ResponseWriter, r *http.Request) {
	var row apiRow
	body, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		tooLarge(w)
		return
	}
	if err == nil {
		err = json.Unmarshal(body, &row)
	}
	if err != nil {
		apiError(w, http.StatusBadRequest, "a JSON object {a, b, qid, chunk_id, rel}")
		return
	}
	if err := s.bench.Adjudicate(row.A, row.B, row.QID, row.ChunkID, row.Rel); err != nil {
		benchError(w, err)
		return
	}
	g, err := s.bench.Consensus(row.A, row.B, false)
	if err != nil {
		apiError(w, http.StatusInternalServerError, err.Error())
		return
	}
	out := struct {
		Decided       int `json:"decided"`
		Disagreements int `json:"disagreements"`
	}{Disagreements: len(g.Disagreements)}
	for _, d := range g.Disagreements {
		if d.Consensus != nil {
			out.Decided++
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// progressCounts are an annotator's labelled and pooled rows, of one
// question and of all.
type progressCounts struct {
	Question struct{ Judged, Rows int } `json:"question"`
	All      struct{ Judged, Rows int } `json:"all"`
}

func (s *Server) counts(ann, qid string) (progressCounts, error) {
	var out progressCounts
	ps, err := s.bench.Progress(ann)
	if err != nil {
		return out, err
	}
	for _, p := range ps {
		out.All.Judged += p.Judged
		out.All.Rows += p.Rows
		if p.QID == qid {
			out.Question.Judged, out.Question.Rows = p.Judged, p.Rows
		}
	}
	return out, nil
}

// progress answers an API write with the annotator's counts.
func (s *Server) progress(w http.ResponseWriter, ann, qid string) {
	out, err := s.counts(ann, qid)
	if err != nil {
		apiError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func atoiDefault(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

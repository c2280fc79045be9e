// Package web is the local web app of `linemem serve`: a Search page over
// the everyday memory (lib/memory), a Judge page that labels the pooled
// candidates of lib/workbench, and an Agreement page for two annotators.
//
// It is built from net/http (ServeMux patterns such as `GET /judge/{qid}`),
// html/template (every message is escaped; matched terms and evidence
// messages are marked with <mark> around escaped text) and assets embedded
// with go:embed, so the pages work with the network unplugged.
//
// Safety. Every POST carries the server's CSRF token (header X-CSRF-Token or
// form field csrf, compared in constant time); without Public, requests whose
// Host is not a loopback name are refused (a DNS-rebinding page cannot reach
// the app). Request logs hold the method, the route pattern, the status and
// the duration only: never a query string, a question or a message.
//
// Judging. The annotator's name lives in a cookie; each label, note and
// keep/drop is its own small POST, stored at once (a killed server loses
// nothing). Rows are shown blind unless ?reveal=1. A write the workbench
// refuses (an unknown question, a chunk outside the question's pool, a
// relevance other than 0, 1 or 2) stores nothing and is answered 404 or 400
// with {"error": "…"}.
//
// Imports: lib/memory, lib/workbench, lib/store, lib/tokenize and the
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
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/workbench"
)

//go:embed assets templates
var files embed.FS

// Defaults of the pages.
const (
	DefaultK       = memory.DefaultK // results on the Search page, as `search`
	ContextBefore  = 5               // messages shown before a chunk on demand
	ContextAfter   = 5               // and after it
	annotatorKey   = "linemem_annotator"
	csrfHeader     = "X-CSRF-Token"
	maxRequestBody = 64 << 10
)

// Options configures a Server.
type Options struct {
	Store *store.Store // required
	// OpenMemory opens the everyday search with a retriever ("" = its
	// default). nil means memory.Open(Store, memory.Options{Retriever: name}).
	OpenMemory func(retriever string) (*memory.Memory, error)
	// Retrievers are offered on the Search page besides the default.
	Retrievers []string
	// Public accepts any Host header; otherwise only loopback names.
	Public bool
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
	tok   tokenize.Tokenizer

	mu       sync.Mutex
	memories map[string]*memory.Memory
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
	if opts.OpenMemory == nil {
		opts.OpenMemory = func(name string) (*memory.Memory, error) {
			return memory.Open(opts.Store, memory.Options{Retriever: name})
		}
	}
	tok, err := tokenize.New(memory.EverydayTokenizer(""))
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, bench: workbench.Open(opts.Store), mux: http.NewServeMux(), tok: tok, memories: map[string]*memory.Memory{}}
	if err := s.parseTemplates(); err != nil {
		return nil, err
	}
	assets, _ := fs.Sub(files, "assets")
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(assets)))
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
	switch {
	case !s.opts.Public && !loopbackHost(r.Host):
		http.Error(w, "this server answers only to a loopback address (serve --public to change that)", http.StatusForbidden)
	case r.Method == http.MethodPost && !s.validToken(r):
		http.Error(w, "missing or wrong CSRF token; reload the page", http.StatusForbidden)
	default:
		r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
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

func (s *Server) validToken(r *http.Request) bool {
	got := r.Header.Get(csrfHeader)
	if got == "" && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		got = r.PostFormValue("csrf")
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
}

// loopbackHost reports whether a Host header names this machine's loopback.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopback reports whether addr (HOST:PORT) binds a loopback address only.
// An empty host (all interfaces) is not loopback.
func IsLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("address %q: want HOST:PORT: %w", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// memory returns the everyday search with retriever name, opened once.
func (s *Server) memory(name string) (*memory.Memory, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.memories[name]; ok {
		return m, nil
	}
	m, err := s.opts.OpenMemory(name)
	if err != nil {
		return nil, err
	}
	s.memories[name] = m
	return m, nil
}

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
	if name == "" || len(name) > 64 || strings.ContainsAny(name, ",\n\r\t") {
		http.Error(w, "an annotator name: 1–64 bytes, no commas or line breaks", http.StatusBadRequest)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: annotatorKey, Value: url.QueryEscape(name), Path: "/", SameSite: http.SameSiteStrictMode, HttpOnly: true, MaxAge: 365 * 24 * 3600})
	back := r.PostFormValue("back")
	if !strings.HasPrefix(back, "/") || strings.HasPrefix(back, "//") {
		back = "/judge"
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

type apiRow struct {
	QID     string  `json:"qid"`
	ChunkID string  `json:"chunk_id"`
	Rel     *int    `json:"rel"`
	Note    *string `json:"note"`
	Keep    *bool   `json:"keep"`
}

func (s *Server) readAPI(w http.ResponseWriter, r *http.Request) (apiRow, string, bool) {
	var row apiRow
	ann := s.annotator(r)
	if ann == "" {
		apiError(w, http.StatusBadRequest, "set your annotator name first")
		return row, "", false
	}
	body, err := io.ReadAll(r.Body)
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
	if err := s.bench.Label(ann, row.QID, row.ChunkID, row.Rel); err != nil {
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

// progress answers an API write with the annotator's counts.
func (s *Server) progress(w http.ResponseWriter, ann, qid string) {
	ps, err := s.bench.Progress(ann)
	if err != nil {
		apiError(w, http.StatusInternalServerError, err.Error())
		return
	}
	var out struct {
		Question struct{ Judged, Rows int } `json:"question"`
		All      struct{ Judged, Rows int } `json:"all"`
	}
	for _, p := range ps {
		out.All.Judged += p.Judged
		out.All.Rows += p.Rows
		if p.QID == qid {
			out.Question.Judged, out.Question.Rows = p.Judged, p.Rows
		}
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

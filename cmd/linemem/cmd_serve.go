package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/web"
)

// defaultServeAddr is where `serve` listens without --addr (spec §13).
const defaultServeAddr = "127.0.0.1:8080"

func init() {
	c := &command{
		name:    "serve",
		summary: "the local web app: Search, Judge (label pooled candidates), History, Agreement and Adjudicate",
		usage: `[--addr HOST:PORT] [--public --allowed-host NAME…] [--retriever NAME]

Serves on a loopback address: Search (the everyday memory search, matched
terms marked, surrounding messages on demand), Judge (one pooled question at
a time, read and labelled by keyboard, blind until sources are shown, saved
to the database at every keystroke, undo/redo from the stored history),
History (every change of the annotator), Agreement (Cohen's κ of two
annotators and their disagreements) and Adjudicate (their disagreements
decided into annotator consensus). The first line on stdout is the base URL; port 0 picks a
free port. A host that is not a loopback address is refused unless --public
is given: the pages show your messages to anyone who can reach them. The Host
check stays on with --public: requests are answered only when their Host is a
loopback name or one named by --allowed-host (repeatable), so --public needs
at least one.
Request logs (stderr) hold no message, question or query text.`,
	}
	c.run = func(env *environment, args []string) error { return runServe(env, c, args) }
	register(c)
}

func runServe(env *environment, c *command, args []string) error {
	var dbPath string
	fs := newFlagSet(env, c, &dbPath)
	addr := fs.String("addr", defaultServeAddr, "listen `HOST:PORT` (port 0: a free port)")
	public := fs.Bool("public", false, "allow a non-loopback address (anyone who reaches it sees your messages)")
	allowed := fs.StringArray("allowed-host", nil, "with --public: a host `NAME` browsers reach this server by (repeatable); others are refused")
	retriever := fs.String("retriever", "", "default retriever `NAME` of the Search page (default: as `search`)")
	embedModel := fs.String("embed-model", "", "embedding `MODEL` for dense retrievers (default: the only one stored)")
	quiet := fs.Bool("quiet", false, "no request log on stderr")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, rest[0])
	}
	loop, err := web.IsLoopback(*addr)
	if err != nil {
		return fmt.Errorf("%w: --addr: %v", errUsage, err)
	}
	if !loop && !*public {
		return fmt.Errorf("%w: %s is not a loopback address; the app shows your messages to whoever reaches it. Pass --public to serve it anyway", errUsage, *addr)
	}
	if *public && len(*allowed) == 0 {
		return fmt.Errorf("%w: --public keeps the Host check: name the host browsers will use with --allowed-host NAME (repeatable); loopback names are always accepted", errUsage)
	}
	if len(*allowed) > 0 && !*public {
		return fmt.Errorf("%w: --allowed-host goes with --public", errUsage)
	}
	for _, h := range *allowed {
		if h == "" || strings.ContainsAny(h, ":/ ") {
			return fmt.Errorf("%w: --allowed-host %q: want a host name or IPv4 address without port", errUsage, h)
		}
	}
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	if *retriever != "" {
		if _, err := retrieval.ParseName(*retriever); err != nil {
			return fmt.Errorf("%w: --retriever: %v", errUsage, err)
		}
	}
	opts := web.Options{
		Store:        st,
		AllowedHosts: *allowed,
		OpenMemory:   memoryOpener(st, *retriever, *embedModel),
		Retrievers:   experiment.PaperProtocol().Singles,
	}
	if !*quiet {
		opts.Log = log.New(env.stderr, "serve ", log.LstdFlags)
	}
	srv, err := web.New(opts)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	fmt.Fprintln(env.stdout, baseURL(ln.Addr()))
	if !loop {
		fmt.Fprintf(env.stderr, "warning: serving on %s, not a loopback address: anyone who can reach it can read and judge your messages; the Host check stays on: only loopback names and %s are answered\n", ln.Addr(), strings.Join(*allowed, ", "))
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// baseURL is the URL a browser on this machine opens for a listener at a:
// http://HOST:PORT/, with 127.0.0.1 for a wildcard host (0.0.0.0 or ::, which
// a browser cannot open and which answers on loopback too).
func baseURL(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(t.Port)) + "/"
	}
	return "http://" + a.String() + "/"
}

// memoryOpener opens the everyday search for a retriever name; "" is the
// --retriever default. Dense retrievers embed free questions with the stored
// local model (lib/memory, as `search` does).
func memoryOpener(st *store.Store, defaultName, embedModel string) func(string) (*memory.Memory, error) {
	return func(name string) (*memory.Memory, error) {
		if name == "" {
			name = defaultName
		}
		return memory.Open(st, memory.Options{Retriever: name, EmbedModel: embedModel})
	}
}

// Command linemem turns a LINE chat export into a searchable SQLite memory and
// evaluates how well each search method finds the conversations that answer a
// question. Run `linemem help` for the command list; spec §12 fixes the names.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/store"
)

// command is one subcommand. The commands of a family (those whose names
// share the first word: "gold pool", "gold export", …) live in one file,
// cmd_FAMILY.go ("-" written "_"), and each registers itself there, in an
// init, with register(&command{…, run: runX}). run receives the command
// itself (for its flag set's usage text) and the arguments after its
// name.
type command struct {
	name    string // "ingest", or "vectors import" for a two-word command
	summary string // one line for `linemem help`
	usage   string // argument synopsis, after the name
	run     func(env *environment, c *command, args []string) error
}

// environment carries the process's streams so commands stay testable.
type environment struct {
	stdout io.Writer
	stderr io.Writer
	// help: the command line asks for a command's usage (-h or --help
	// before any "--"), which then goes to stdout, so that it pages
	// (`linemem search --help | less`); a usage printed beside a usage
	// error goes to stderr.
	help bool
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("linemem: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// asksForHelp reports whether args ask for a command's usage: -h or
// --help before any "--".
func asksForHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}

// errUsage marks an error whose message is a usage hint; exit code 2.
var errUsage = errors.New("usage")

func main() {
	env := &environment{stdout: os.Stdout, stderr: os.Stderr}
	os.Exit(profiled(env.stderr, func() int { return runMain(env, os.Args[1:]) }))
}

// runMain dispatches args and returns the process exit code: 0 ok, 1 failure,
// 2 usage error.
func runMain(env *environment, args []string) int {
	if len(args) > 1 && args[0] == "help" { // help COMMAND … is COMMAND … --help
		return runMain(env, append(slices.Clone(args[1:]), "--help"))
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printHelp(env.stdout)
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "version" || args[0] == "-v" {
		fmt.Fprintln(env.stdout, versionLine())
		return 0
	}
	cmd, rest := lookup(args)
	if cmd == nil {
		if group := subcommands(args[0]); len(group) > 0 {
			if len(args) == 2 && (args[1] == "-h" || args[1] == "--help") {
				printCommands(env.stdout, group)
				return 0
			}
			if len(args) == 1 {
				fmt.Fprintf(env.stderr, "linemem %s: a subcommand is needed:\n", args[0])
			} else {
				fmt.Fprintf(env.stderr, "linemem: unknown command %q; `%s` has:\n", args[0]+" "+args[1], args[0])
			}
			printCommands(env.stderr, group)
			return 2
		}
		fmt.Fprintf(env.stderr, "linemem: unknown command %q%s; run `linemem help`\n", args[0], didYouMean(args[0], commandWords()))
		return 2
	}
	env.help = asksForHelp(rest)
	if err := cmd.run(env, cmd, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(env.stderr, "linemem %s: %v\n", cmd.name, err)
		if errors.Is(err, errUsage) || errors.Is(err, openai.ErrBaseURL) {
			return 2
		}
		return 1
	}
	return 0
}

// commandWords lists the first words of the commands, sorted, once each.
func commandWords() []string {
	seen := map[string]bool{}
	var out []string
	for n := range commands {
		w, _, _ := strings.Cut(n, " ")
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// didYouMean returns `; did you mean "X"?` for the known word closest to
// typed (Levenshtein distance at most 2, and less than typed's length; the
// first in known's order on a tie), or "" when none is that close.
func didYouMean(typed string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := memory.Levenshtein(typed, k); d < bestD && d < len([]rune(typed)) {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

func lookup(args []string) (*command, []string) {
	if len(args) >= 2 {
		if c, ok := commands[args[0]+" "+args[1]]; ok {
			return c, args[2:]
		}
	}
	if c, ok := commands[args[0]]; ok {
		return c, args[1:]
	}
	return nil, nil
}

// subcommands lists, sorted, the commands named "group …".
func subcommands(group string) []string {
	var out []string
	for n := range commands {
		if strings.HasPrefix(n, group+" ") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func printCommands(w io.Writer, names []string) {
	for _, n := range names {
		fmt.Fprintf(w, "  %-18s %s\n", n, commands[n].summary)
	}
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "linemem — personal memory retrieval over LINE chat exports")
	fmt.Fprintln(w, "\nUsage: linemem COMMAND [flags] [args]   (every command takes --db FILE)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	printCommands(w, names)
	fmt.Fprintln(w, "\nRun `linemem COMMAND --help` for a command's flags.")
}

// version and commit identify this binary; `go build -ldflags "-X
// main.version=v1.2.3 -X main.commit=$(git rev-parse HEAD)"` sets them, and
// the commit otherwise comes from the VCS stamp of the Go toolchain.
var version, commit = "devel", ""

// versionLine is what `linemem --version` prints: the version, and the VCS
// commit (with "-dirty" for uncommitted changes) that the Go toolchain
// stamped into the binary, or "unknown" when it stamped none (`go run`, tests).
func versionLine() string {
	rev, dirty := commit, false
	if info, ok := debug.ReadBuildInfo(); ok {
		if version == "devel" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if rev == "" {
					rev = s.Value
				}
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if rev == "" {
		rev = "unknown"
	} else if dirty {
		rev += "-dirty"
	}
	return fmt.Sprintf("linemem %s (commit %s)", version, rev)
}

// newFlagSet returns a flag set for c whose usage text names the command, with
// the shared --db flag bound to db. Flags are GNU style (spf13/pflag):
// `--name value` or `--name=value`, anywhere on the line; `--` ends them.
// The set prints nothing itself: a parse error is returned once, wrapped in
// errUsage, and printed by runMain; --help prints the usage to stdout
// (environment.help), a usage beside a usage error goes to stderr.
func newFlagSet(env *environment, c *command, db *string) *flag.FlagSet {
	fs := flag.NewFlagSet("linemem "+c.name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.SortFlags = false
	fs.StringVar(db, "db", "linemem.db", "SQLite database `FILE`")
	fs.Usage = func() {
		w := env.stderr
		if env.help {
			w = env.stdout
		}
		fs.SetOutput(w)
		fmt.Fprintf(w, "Usage: linemem %s [flags] %s\n\n%s\n\nFlags:\n", c.name, c.usage, c.summary)
		fs.PrintDefaults()
	}
	return fs
}

// singleDashLong matches a Go-style long flag written with one dash (-db,
// -k=3), which parseInterspersed accepts as its two-dash form.
var singleDashLong = regexp.MustCompile(`^-[A-Za-z][A-Za-z0-9-]*(=.*)?$`)

// parseInterspersed parses args with fs, flags anywhere on the line
// (`ingest DIR --window 30`), and returns the positional arguments in order;
// everything after a "--" argument is positional. A one-dash long flag
// (`-db x`, Go's flag style) is read as its two-dash form. A bad flag is a
// usage error (exit code 2), and so is a numeric flag given outside its
// range in flagRanges; -h and --help give flag.ErrHelp.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	norm := make([]string, len(args))
	copy(norm, args)
	for i, a := range norm {
		if a == "--" {
			break
		}
		if singleDashLong.MatchString(a) && fs.Lookup(strings.SplitN(a[1:], "=", 2)[0]) != nil {
			norm[i] = "-" + a
		}
	}
	fs.SetInterspersed(true)
	if flagSetSeen != nil {
		flagSetSeen(fs)
	}
	if err := fs.Parse(norm); errors.Is(err, flag.ErrHelp) {
		return nil, err
	} else if err != nil {
		hint := ""
		if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
			var flags []string
			fs.VisitAll(func(f *flag.Flag) { flags = append(flags, "--"+f.Name) })
			hint = didYouMean("--"+name, flags)
		}
		return nil, fmt.Errorf("%w: %v%s (run `linemem %s --help`)", errUsage, err, hint, strings.TrimPrefix(fs.Name(), "linemem "))
	}
	if err := checkFlagRanges(fs); err != nil {
		return nil, err
	}
	return fs.Args(), nil
}

// parseFlagsOnly parses args with fs (see parseInterspersed) for a command
// that takes no positional argument: the first one is a usage error.
func parseFlagsOnly(fs *flag.FlagSet, args []string) error {
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, rest[0])
	}
	return nil
}

// parseOneFile parses args with fs (see parseInterspersed) for a command
// that takes exactly one FILE argument, and returns it; another count prints
// the usage and is a usage error.
func parseOneFile(fs *flag.FlagSet, args []string) (string, error) {
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return "", err
	}
	if len(positional) != 1 {
		fs.Usage()
		return "", fmt.Errorf("%w: expected exactly one FILE, got %d arguments", errUsage, len(positional))
	}
	return positional[0], nil
}

// openStoreAndCache opens an existing database (see openExistingStore) and
// its provider cache, for the commands that send text to a provider.
func openStoreAndCache(path string) (*store.Store, *cache.Cache, error) {
	st, err := openExistingStore(path)
	if err != nil {
		return nil, nil, err
	}
	cc, err := cache.Open(st.DB())
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st, cc, nil
}

// openExistingStore opens the database at path for a command that reads what
// an earlier `linemem ingest` stored; a missing or empty file is an error that
// says so rather than an empty database created on the spot.
func openExistingStore(path string) (*store.Store, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such database; run `linemem ingest --db %s PATH…` first", path, path)
	}
	if err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		return nil, fmt.Errorf("%s: an empty file, not a database yet; run `linemem ingest --db %s PATH…` first", path, path)
	}
	return store.Open(path)
}

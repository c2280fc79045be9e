package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/memory"
)

// flagRange is the closed interval [lo, hi] a numeric flag's value must lie
// in; hi may be +Inf. A duration's bounds are in nanoseconds.
type flagRange struct{ lo, hi float64 }

func between(lo, hi float64) flagRange      { return flagRange{lo, hi} }
func atLeast(lo float64) flagRange          { return flagRange{lo, math.Inf(1)} }
func during(lo, hi time.Duration) flagRange { return flagRange{float64(lo), float64(hi)} }

// numericFlagTypes are the pflag value types whose flags need a range.
var numericFlagTypes = map[string]bool{
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "duration": true,
}

// rangeOf returns the declared range of flag name of command, from
// flagRanges: "COMMAND --name" first, then "--name".
func rangeOf(command, name string) (flagRange, bool) {
	if r, ok := flagRanges[command+" --"+name]; ok {
		return r, true
	}
	r, ok := flagRanges["--"+name]
	return r, ok
}

// checkFlagRanges returns a usage error naming the flag and its range for
// the first numeric flag given on the command line whose value lies
// outside its declared range (NaN and ±Inf included). A default is not
// checked: defaults such as -1 for "not set" are chosen by the command.
func checkFlagRanges(fs *flag.FlagSet) error {
	command := strings.TrimPrefix(fs.Name(), "linemem ")
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || !f.Changed || !numericFlagTypes[f.Value.Type()] {
			return
		}
		r, ok := rangeOf(command, f.Name)
		if !ok {
			return
		}
		v, perr := flagNumber(f)
		if perr != nil || !(v >= r.lo && v <= r.hi) {
			err = fmt.Errorf("%w: --%s must be %s, got %s", errUsage, f.Name, r.describe(f.Value.Type()), f.Value.String())
		}
	})
	return err
}

// flagNumber is f's value as a float64 (a duration in nanoseconds).
func flagNumber(f *flag.Flag) (float64, error) {
	if f.Value.Type() == "duration" {
		d, err := time.ParseDuration(f.Value.String())
		return float64(d), err
	}
	return strconv.ParseFloat(f.Value.String(), 64)
}

// describe writes the range for a usage error: "between 1 and 100000",
// "1 or more", "between 1ms and 24h0m0s".
func (r flagRange) describe(typ string) string {
	format := func(v float64) string {
		if typ == "duration" {
			return time.Duration(v).String()
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	if math.IsInf(r.hi, 1) {
		return format(r.lo) + " or more"
	}
	return "between " + format(r.lo) + " and " + format(r.hi)
}

// flagSetSeen, when set (by tests), is called with every flag set
// parseInterspersed is about to parse.
var flagSetSeen func(*flag.FlagSet)

// flagRanges is the one home of every numeric flag's range: "--name" for
// every command with that flag, "COMMAND --name" for one command where the
// flag means something else. TestEveryNumericFlagHasARange holds it
// complete.
var flagRanges = map[string]flagRange{
	"--bootstrap": between(1, experiment.MaxBootstrap),
	"--seed":      between(0, math.MaxUint64),
	"--k":         between(1, memory.MaxK),

	// The provider flags (summarize, embed, ask, eval-answers, questions draft).
	"--timeout":           during(time.Millisecond, 24*time.Hour),
	"--interval":          during(0, time.Hour),
	"--max-attempts":      between(1, 100),
	"--max-failures":      between(-1, 1_000_000),
	"--rpm":               between(0, 1_000_000),
	"--tpm":               between(0, 1_000_000_000),
	"--max-output-tokens": between(1, 1_000_000),
	"--price-in":          between(0, 10_000),
	"--price-out":         between(0, 10_000),
	"--input-cap":         between(1, 10_000_000),

	"analyzers abstain --at":           between(0, 1),
	"analyzers everyday --at":          between(0, 1),
	"datasets --users":                 between(1, 1_000_000),
	"datasets --questions":             between(1, 100_000),
	"embed --cap":                      between(1, 10_000_000),
	"embed --dimensions":               between(0, 65_536),
	"embed --batch":                    between(1, 2048),
	"embed --vocab":                    between(1, 10_000_000),
	"gold pool --depth":                between(0, 1000),
	"ingest --gap-minutes":             between(0, 100*366*24*60),
	"ingest --window":                  between(1, 1_000_000),
	"ingest --stride":                  between(1, 1_000_000),
	"ingest --max-chars":               between(1, 100_000_000),
	"ingest --max-file-mib":            between(1, 1<<20),
	"mcp --idle-timeout":               during(0, 7*24*time.Hour),
	"questions draft --context-tokens": between(1, 10_000_000),
	"questions draft --max-windows":    between(0, 1_000_000_000),
	"questions draft --per-window":     between(1, 100),
	"questions draft --window-chars":   between(1, 10_000_000),
	"robustness --workers":             between(0, 1024),
	"search --context":                 between(0, 1000),
	"vectors import --input-cap":       between(0, 10_000_000),
}

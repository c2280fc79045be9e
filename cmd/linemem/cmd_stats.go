package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/store"
	"golang.org/x/text/width"
)

func init() {
	register(&command{
		name:    "stats",
		summary: "count sources, messages, chunks, summaries and vectors (Table 1)",
		usage: `[--json]

--json prints {"sources", "messages", "chunks", "uncovered_messages",
"summaries", "raw_text_length": {"mean", "p95", "max"}, "summary_length"
(when summaries exist), "vector_sets", "query_vector_sets", "chat_titles"
(when a source has one: [{"source", "title"}], by source name)}; lengths
count characters (code points), p95 interpolates linearly between order
statistics. The table ends with each chat's title (read from a .txt
export's header) and its file name.`,
		run: runStats,
	})
}

// statsLengths is the JSON form of store.LengthStats.
type statsLengths struct {
	Mean float64 `json:"mean"`
	P95  float64 `json:"p95"`
	Max  int     `json:"max"`
}

// statsChatTitle is a source's chat title, as read from its .txt header.
type statsChatTitle struct {
	Source string `json:"source"`
	Title  string `json:"title"`
}

type statsVectorSet struct {
	Rep   string `json:"rep,omitempty"`
	Model string `json:"model"`
	Dim   int    `json:"dim"`
	Count int    `json:"count"`
}

// statsJSON is the document `stats --json` prints; field order is output order.
type statsJSON struct {
	Sources           int              `json:"sources"`
	Messages          int              `json:"messages"`
	Chunks            int              `json:"chunks"`
	UncoveredMessages int              `json:"uncovered_messages"`
	Summaries         int              `json:"summaries"`
	Incomplete        int              `json:"incomplete_summaries,omitempty"` // kept apart; summarize --retry-incomplete resends them
	RawTextLength     statsLengths     `json:"raw_text_length"`
	SummaryLength     *statsLengths    `json:"summary_length,omitempty"`
	VectorSets        []statsVectorSet `json:"vector_sets"`
	QueryVectorSets   []statsVectorSet `json:"query_vector_sets"`
	ChatTitles        []statsChatTitle `json:"chat_titles,omitempty"`
}

func runStats(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	asJSON := fset.Bool("json", false, "print JSON")
	if err := parseFlagsOnly(fset, args); err != nil {
		return err
	}
	st, err := openReadOnlyStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := st.Stats()
	if err != nil {
		return err
	}
	titles, err := chatTitles(st)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		doc := statsDocument(s)
		doc.ChatTitles = titles
		return enc.Encode(doc)
	}
	return statsTable(env, s, titles)
}

// chatTitles lists the sources that have a chat title, by source name.
func chatTitles(st *store.Store) ([]statsChatTitle, error) {
	byName, err := st.SourceTitles()
	if err != nil {
		return nil, err
	}
	var out []statsChatTitle
	for name, title := range byName {
		if title != "" {
			out = append(out, statsChatTitle{Source: name, Title: title})
		}
	}
	slices.SortFunc(out, func(a, b statsChatTitle) int { return strings.Compare(a.Source, b.Source) })
	return out, nil
}

func statsDocument(s store.Stats) statsJSON {
	doc := statsJSON{
		Sources: s.Sources, Messages: s.Messages, Chunks: s.Chunks, UncoveredMessages: s.UncoveredMessages,
		Summaries:       s.Summaries,
		Incomplete:      s.Incomplete,
		RawTextLength:   statsLengths(s.RawTextLength),
		VectorSets:      []statsVectorSet{},
		QueryVectorSets: []statsVectorSet{},
	}
	if s.Summaries > 0 {
		l := statsLengths(s.SummaryLength)
		doc.SummaryLength = &l
	}
	for _, v := range s.VectorSets {
		doc.VectorSets = append(doc.VectorSets, statsVectorSet(v))
	}
	for _, v := range s.QueryVectorSets {
		doc.QueryVectorSets = append(doc.QueryVectorSets, statsVectorSet(v))
	}
	return doc
}

// statsTable prints the paper's Table 1 rows first, then what else is stored.
func statsTable(env *environment, s store.Stats, titles []statsChatTitle) error {
	var items, values []string
	row := func(item, value string) { items, values = append(items, item), append(values, value) }
	row("Item", "Value")
	row("LINE messages", thousands(s.Messages))
	row("Chunks", thousands(s.Chunks))
	row("Sources", thousands(s.Sources))
	row("Messages in no chunk", thousands(s.UncoveredMessages))
	row("raw_text length (chars)", lengthCells(s.RawTextLength))
	row("Summaries", thousands(s.Summaries))
	if s.Summaries > 0 {
		row("Summary length (chars)", lengthCells(s.SummaryLength))
	}
	if s.Incomplete > 0 {
		row("Incomplete summaries (output limit reached)", thousands(s.Incomplete))
	}
	for _, v := range s.VectorSets {
		row(fmt.Sprintf("%s vectors (%s)", v.Rep, v.Model), fmt.Sprintf("%s × %d", thousands(v.Count), v.Dim))
	}
	for _, v := range s.QueryVectorSets {
		row(fmt.Sprintf("Query vectors (%s)", v.Model), fmt.Sprintf("%s × %d", thousands(v.Count), v.Dim))
	}
	if len(titles) > 0 {
		row("Chat titles (file)", thousands(len(titles)))
		for _, t := range titles {
			row("  "+t.Title, t.Source)
		}
	}
	wide := 0
	for _, item := range items {
		wide = max(wide, displayWidth(item))
	}
	for i, item := range items {
		if _, err := fmt.Fprintf(env.stdout, "%s%s%s\n", item, strings.Repeat(" ", wide-displayWidth(item)+2), values[i]); err != nil {
			return err
		}
	}
	return nil
}

// displayWidth is how many columns s takes on a terminal: two for an East
// Asian wide or full-width character (ゼミ, ＡＢ), one for any other, so
// that a column after a Japanese chat title lines up.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

func lengthCells(l store.LengthStats) string {
	return fmt.Sprintf("mean %.1f, p95 %.1f, max %s", l.Mean, l.P95, thousands(l.Max))
}

// thousands formats n with commas between groups of three digits: 358,896.
func thousands(n int) string {
	digits := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	var out []byte
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, digits[i])
	}
	return sign + string(out)
}

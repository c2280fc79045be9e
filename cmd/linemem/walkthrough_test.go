package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// documentedWalkThroughs are the walk-throughs that run as written: the
// first sh block after heading in file (relative to the repository root).
var documentedWalkThroughs = []struct{ file, heading string }{
	{"README.md", "## Search your own history"},
	{"docs/your-history.md", "## Your own history"},
}

// walkThrough returns the argument lists of the `bin/linemem …` lines of the
// first sh block after heading in file, with me.db and testdata/history
// replaced by db and the fixture's path.
func walkThrough(t *testing.T, file, heading, db string) [][]string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n"+heading)
	if !ok {
		t.Fatalf("%s has no %q section", file, heading)
	}
	_, block, _ := strings.Cut(section, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	var out [][]string
	for _, line := range strings.Split(block, "\n") {
		line, _, _ = strings.Cut(line, " #")
		words := shellWords(line)
		if len(words) == 0 || words[0] != "bin/linemem" {
			continue
		}
		for i, w := range words {
			switch w {
			case "me.db":
				words[i] = db
			case "testdata/history":
				words[i] = historyDir
			}
		}
		out = append(out, words[1:])
	}
	if len(out) == 0 {
		t.Fatalf("no bin/linemem lines in the walk-through of %s", file)
	}
	return out
}

// shellWords splits a command line at spaces outside double quotes.
func shellWords(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, any := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, any = !quoted, true
		case r == ' ' && !quoted:
			if any {
				out = append(out, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

// TestDocumentedWalkThroughs runs the commands of each documented
// walk-through as written, on the fixture history; each must succeed, and
// each search or ask must put the planted answer first.
func TestDocumentedWalkThroughs(t *testing.T) {
	for _, doc := range documentedWalkThroughs {
		t.Run(doc.file, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "me.db")
			for _, args := range walkThrough(t, doc.file, doc.heading, db) {
				out := run(t, args...)
				if args[0] != "search" && args[0] != "ask" {
					continue
				}
				answer := plantedAnswer(args[1])
				first, _, _ := strings.Cut(strings.ReplaceAll(out, "**", ""), "\n#2")
				var found searchJSON
				if json.Unmarshal([]byte(out), &found) == nil && len(found.Results) > 0 {
					first = found.Results[0].RawText
				}
				if answer == "" || !strings.Contains(first, answer) {
					t.Errorf("linemem %s: the first result does not hold %q:\n%s", strings.Join(args, " "), answer, out)
				}
			}
		})
	}
}

// plantedAnswer is the answer phrase of a planted fact's question, or "".
func plantedAnswer(question string) string {
	for _, f := range plantedFacts {
		if f.question == question {
			return f.answer
		}
	}
	return ""
}

// historyDir holds three hand-written LINE .txt exports, 16 chunks in all,
// with four planted facts among everyday chatter.
var historyDir = filepath.Join("..", "..", "testdata", "history")

// plantedFacts are questions about the history and a phrase of the one
// message that answers each.
var plantedFacts = []struct{ question, answer string }{
	{"保険証どこに入れたっけ", "保険証は玄関の棚"},
	{"沖縄の飛行機は何時発？", "7時10分発のANA463便"},
	{"土曜の鍋に何を買えばいい？", "白菜と豆腐"},
	{"シフト希望の締切はいつ", "締切は5月20日の正午"},
}

// TestWalkThroughYourOwnHistory runs the steps of docs/your-history.md
// on a 16-chunk history: ingest a folder, embed locally, then search with
// BM25, the local vectors, the paper's hybrid, reciprocal rank fusion and
// the everyday default; each planted fact must come first, its message shown
// with the question's terms marked.
func TestWalkThroughYourOwnHistory(t *testing.T) {
	db := filepath.Join(t.TempDir(), "me.db")
	run(t, "ingest", historyDir, "--db", db)
	var stats statsJSON
	if err := json.Unmarshal([]byte(run(t, "stats", "--db", db, "--json")), &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Chunks != 16 {
		t.Fatalf("%d chunks, want the fixture's 16", stats.Chunks)
	}
	if code, _, stderr := runCode("embed", "--db", db, "--provider", "lsa", "--rep", "embedding_text"); code == 0 || !strings.Contains(stderr, "--rep raw_text") || !strings.Contains(stderr, "summarize --provider file") {
		t.Errorf("embed --rep embedding_text without summaries: exit %d, %q; want a failure naming --rep raw_text and summarize --provider file", code, stderr)
	}
	run(t, "embed", "--db", db, "--provider", "lsa", "--rep", "raw_text")
	retrievers := []string{"raw_text_bm25", "raw_text_vector", "hybrid:raw_text_bm25+raw_text_vector@0.45", "rrf:raw_text_bm25+raw_text_vector", ""}
	for _, name := range retrievers {
		for _, f := range plantedFacts {
			t.Run(name+"/"+f.question, func(t *testing.T) {
				args := []string{"search", f.question, "--db", db, "--json"}
				if name != "" {
					args = append(args, "--retriever", name)
				}
				var got searchJSON
				if err := json.Unmarshal([]byte(run(t, args...)), &got); err != nil {
					t.Fatal(err)
				}
				if len(got.Results) == 0 || !strings.Contains(got.Results[0].RawText, f.answer) {
					t.Fatalf("%s: first result does not hold %q: %+v", got.Retriever, f.answer, got.Results)
				}
				if strings.Contains(got.Retriever, "bm25") && !shownWithMatch(got.Results[0], f.answer) {
					t.Errorf("%s: the answer %q is not shown with a marked term: %+v", got.Retriever, f.answer, got.Results[0].Messages)
				}
			})
		}
	}
	out := run(t, "search", "--db", db, "保険証どこに入れたっけ", "--k", "1", "--context", "1")
	// one message on each side of the answer, then the chat's first message
	// after the window
	if !strings.Contains(out, "**保険証**は玄関の棚") || strings.Count(out, "\n    20") != 4 || !regexp.MustCompile(`\n    — after this conversation, \d+ (minute|hour|day)s? later —\n    20`).MatchString(out) {
		t.Errorf("text output: want the answer with **保険証** marked, one message on each side and the next message after the window:\n%s", out)
	}
	var filtered searchJSON
	json.Unmarshal([]byte(run(t, "search", "--db", db, "保険証", "--json", "--sender", "ゆい")), &filtered)
	for _, r := range filtered.Results {
		if strings.Contains(r.RawText, "保険証は玄関") {
			t.Errorf("--sender ゆい returned the family chat, where ゆい does not write")
		}
	}
	filtered = searchJSON{}
	json.Unmarshal([]byte(run(t, "search", "--db", db, "おはよー", "--json", "--source", "[LINE] ゆいとのトーク.txt,[LINE] カフェ バイトのトーク.txt")), &filtered)
	if len(filtered.Results) == 0 {
		t.Error("--source: no results for a greeting every chat has")
	}
	for _, r := range filtered.Results {
		if r.Source == "[LINE] 家族のトーク.txt" {
			t.Errorf("--source without the family chat returned %s", r.ChunkID)
		}
	}
	filtered = searchJSON{}
	json.Unmarshal([]byte(run(t, "search", "--db", db, "保険証", "--json", "--since", "2024-05-06")), &filtered)
	for _, r := range filtered.Results {
		if r.EndAt < "2024-05-06" {
			t.Errorf("--since 2024-05-06 returned a chunk ending %s", r.EndAt)
		}
	}
}

// shownWithMatch reports whether r shows the message holding answer with at
// least one marked span.
func shownWithMatch(r searchHitJSON, answer string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Text, answer) && len(m.Matches) > 0 {
			return true
		}
	}
	return false
}

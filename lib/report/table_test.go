package report_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/report"
)

// specialsTable holds every character that one of the three formats must
// escape, a line break, a quote and a cell starting with "[".
func specialsTable() report.Table {
	return report.Table{
		Number:  5,
		Slug:    "paired_differences",
		Caption: "Bootstrap differences (β = 0.50) & 95% CIs",
		Columns: []string{"Comparison", "ΔRecall@5", "95% CI", "Remark"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignCenter, report.AlignLeft},
		Rows: [][]string{
			{"Best - E-BM25", report.Signed3(0.113), report.CI3(0.048, 0.184), `a|b $x$ #1 {c} ~d^e \f <g>`},
			{"[S-hybrid]", report.Signed3(-0.013), report.CI3(-0.013, 0.115), "two\nlines, \"quoted\""},
		},
		Notes: []string{"R: raw_text; S: summary; E: embedding_text.", "Intervals − selection not included; 100%."},
	}
}

func TestTableGolden(t *testing.T) {
	formats := []struct {
		ext   string
		write func(report.Table, io.Writer) error
	}{
		{"csv", report.Table.WriteCSV},
		{"md", report.Table.WriteMarkdown},
		{"tex", report.Table.WriteLaTeX},
	}
	for _, f := range formats {
		t.Run(f.ext, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.write(specialsTable(), &b); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "table_specials."+f.ext, b.Bytes())
		})
	}
}

func TestWriteCSVRoundTrip(t *testing.T) {
	tab := specialsTable()
	var b bytes.Buffer
	if err := tab.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := append([][]string{tab.Columns}, tab.Rows...)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %q, want %q", got, want)
	}
}

func TestWriteLaTeXEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := specialsTable().WriteLaTeX(&b); err != nil {
		t.Fatal(err)
	}
	tex := b.String()
	for _, want := range []string{
		`\caption{Bootstrap differences ($\beta$ = 0.50) \& 95\% CIs}`,
		`\label{tab:paired_differences}`,
		`\begin{tabular}{lrcl}`,
		`\toprule`, `\midrule`, `\bottomrule`,
		`a\textbar{}b \$x\$ \#1 \{c\} \textasciitilde{}d\textasciicircum{}e \textbackslash{}f \textless{}g\textgreater{}`,
		`{}[S-hybrid] & $-$0.013 & {}[$-$0.013, 0.115]`,
		`Best - E-BM25`, // a hyphen inside a name stays a hyphen
		`two lines`,
	} {
		if !strings.Contains(tex, want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, tex)
		}
	}
}

func TestWriteMarkdownEscapes(t *testing.T) {
	var b bytes.Buffer
	if err := specialsTable().WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "**Table 5: Bootstrap differences (β = 0.50) & 95% CIs**" {
		t.Errorf("caption line %q", lines[0])
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "|") {
			continue
		}
		if n := strings.Count(l, "|") - strings.Count(l, `\|`); n != 5 {
			t.Errorf("row %q has %d unescaped pipes, want 5 for 4 columns", l, n)
		}
	}
}

func TestTableEmptyBody(t *testing.T) {
	tab := report.Table{Number: 8, Caption: "No failures", Columns: []string{"Failure type", "Count"}}
	var b bytes.Buffer
	if err := tab.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "Failure type,Count\n" {
		t.Errorf("CSV %q, want the header only", got)
	}
	b.Reset()
	if err := tab.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "**Table 8: No failures**\n\n| Failure type | Count |\n| :--- | :--- |\n"; got != want {
		t.Errorf("Markdown %q, want %q", got, want)
	}
	b.Reset()
	if err := tab.WriteLaTeX(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\\midrule\n\\bottomrule\n") || !strings.Contains(b.String(), `\label{tab:table8}`) {
		t.Errorf("LaTeX body or label wrong:\n%s", b.String())
	}
}

func TestTableValidate(t *testing.T) {
	good := report.Table{Number: 1, Columns: []string{"Item", "Value"}, Rows: [][]string{{"Chunks", "22,329"}}}
	cases := []struct {
		name string
		edit func(*report.Table)
		want error
	}{
		{"valid", func(*report.Table) {}, nil},
		{"no columns", func(t *report.Table) { t.Columns, t.Rows = nil, nil }, report.ErrNoData},
		{"zero number", func(t *report.Table) { t.Number = 0 }, report.ErrInvalid},
		{"short row", func(t *report.Table) { t.Rows = append(t.Rows, []string{"only one"}) }, report.ErrInvalid},
		{"long row", func(t *report.Table) { t.Rows[0] = append(t.Rows[0], "extra") }, report.ErrInvalid},
		{"alignment count", func(t *report.Table) { t.Align = []report.Alignment{report.AlignRight} }, report.ErrInvalid},
		{"alignment value", func(t *report.Table) { t.Align = []report.Alignment{report.AlignLeft, 7} }, report.ErrInvalid},
		{"slug with space", func(t *report.Table) { t.Slug = "single retrievers" }, report.ErrInvalid},
		{"slug with capital", func(t *report.Table) { t.Slug = "Dataset" }, report.ErrInvalid},
		{"slug with separator", func(t *report.Table) { t.Slug = "../x" }, report.ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab := good
			tab.Rows = [][]string{append([]string(nil), good.Rows[0]...)}
			c.edit(&tab)
			err := tab.Validate()
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("Validate() = %v, want %v", err, c.want)
			}
			if c.want == nil {
				return
			}
			for name, write := range map[string]func(io.Writer) error{"csv": tab.WriteCSV, "md": tab.WriteMarkdown, "tex": tab.WriteLaTeX} {
				var b bytes.Buffer
				if err := write(&b); !errors.Is(err, c.want) || b.Len() != 0 {
					t.Errorf("%s: error %v and %d bytes, want %v and nothing written", name, err, b.Len(), c.want)
				}
			}
		})
	}
}

func TestBaseNames(t *testing.T) {
	cases := []struct{ got, want string }{
		{report.Table{Number: 3, Slug: "single_retrievers"}.BaseName(), "table3_single_retrievers"},
		{report.Table{Number: 1}.BaseName(), "table1"},
		{report.FigureBaseName(2, "beta_recall5"), "figure2_beta_recall5"},
		{report.FigureBaseName(6, ""), "figure6"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestWriteFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results")
	tab := specialsTable()
	paths, err := tab.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(dir, "table5_paired_differences.csv"),
		filepath.Join(dir, "table5_paired_differences.md"),
		filepath.Join(dir, "table5_paired_differences.tex"),
	}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("paths %q, want %q", paths, want)
	}
	first := readAll(t, paths)
	if _, err := tab.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	if second := readAll(t, paths); !reflect.DeepEqual(first, second) {
		t.Error("rewriting the same table changed the files")
	}
	for i, ext := range []string{"csv", "md", "tex"} {
		golden, err := os.ReadFile(filepath.Join("testdata", "table_specials."+ext))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first[i], golden) {
			t.Errorf("%s differs from the writer's output", paths[i])
		}
	}

	bad := report.Table{Number: 4, Columns: []string{"a"}, Rows: [][]string{{"1", "2"}}}
	badDir := filepath.Join(t.TempDir(), "bad")
	if _, err := bad.WriteFiles(badDir); !errors.Is(err, report.ErrInvalid) {
		t.Errorf("invalid table: error %v, want ErrInvalid", err)
	}
	if _, err := os.Stat(badDir); !os.IsNotExist(err) {
		t.Errorf("invalid table created %s", badDir)
	}
}

func readAll(t *testing.T, paths []string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func TestUnnumberedTableIsNamedBySlug(t *testing.T) {
	tab := report.Table{Slug: "ceiling_candidates", Caption: "Candidate ceiling", Columns: []string{"a"}, Rows: [][]string{{"1"}}}
	if got := tab.BaseName(); got != "ceiling_candidates" {
		t.Errorf("BaseName = %q, want ceiling_candidates", got)
	}
	var b strings.Builder
	if err := tab.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "**Candidate ceiling**\n") {
		t.Errorf("markdown starts %q, want the caption without a table number", strings.SplitN(b.String(), "\n", 2)[0])
	}
	if err := (report.Table{Columns: []string{"a"}}).Validate(); err == nil {
		t.Error("an unnumbered table without a slug validated")
	}
}

func TestLaTeXPrintsAGroupLabelOnce(t *testing.T) {
	tab := report.Table{Number: 2, Columns: []string{"Retriever", "Tokenizer", "Recall@5"}, Rows: [][]string{
		{"raw_text_bm25", "paper-regex", "0.476"},
		{"raw_text_bm25", "kagome", "0.627"},
		{"summary_bm25", "paper-regex", "0.502"},
		{"summary_bm25", "kagome", "0.674"},
	}}
	var b bytes.Buffer
	if err := tab.WriteLaTeX(&b); err != nil {
		t.Fatal(err)
	}
	body := b.String()
	for _, want := range []string{
		"raw\\_text\\_bm25 & paper-regex & 0.476 \\\\\n & kagome & 0.627 \\\\\n\\addlinespace\nsummary\\_bm25 & paper-regex & 0.502 \\\\\n & kagome & 0.674 \\\\\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("LaTeX lacks\n%s\nin\n%s", want, body)
		}
	}
	var md bytes.Buffer
	if err := tab.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(md.String(), "raw_text_bm25"); n != 2 {
		t.Errorf("Markdown names raw_text_bm25 %d times, want on each of its 2 rows", n)
	}
}

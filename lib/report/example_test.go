package report_test

import (
	"fmt"
	"os"

	"github.com/linemem/linemem/lib/report"
)

func ExampleTable_WriteMarkdown() {
	t := report.Table{
		Number:  7,
		Slug:    "failures_by_type",
		Caption: "Top-5 failures by question type under the selected best hybrid",
		Columns: []string{"Question type", "Questions", "Top-5 failures", "Failure rate"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignRight},
		Rows: [][]string{
			{"named_entity", "34", "6", report.Percent1(6.0 / 34)},
			{"aggregate", "17", "8", report.Percent1(8.0 / 17)},
		},
		Notes: []string{"A failure has no primary-gold chunk in the Top 5."},
	}
	if err := t.WriteMarkdown(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// **Table 7: Top-5 failures by question type under the selected best hybrid**
	//
	// | Question type | Questions | Top-5 failures | Failure rate |
	// | :--- | ---: | ---: | ---: |
	// | named_entity | 34 | 6 | 17.6% |
	// | aggregate | 17 | 8 | 47.1% |
	//
	// A failure has no primary-gold chunk in the Top 5.
}

func ExampleSigned3() {
	fmt.Println(report.Signed3(0.113), report.Signed3(-0.013), report.CI3(-0.013, 0.115))
	// Output:
	// +0.113 -0.013 [-0.013, 0.115]
}

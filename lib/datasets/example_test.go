package datasets_test

import (
	"fmt"

	"github.com/linemem/linemem/lib/datasets"
)

func ExampleContentTerms() {
	fmt.Println(datasets.ContentTerms("週末は京都の寺院巡りと抹茶パフェを楽しみました。"))
	// Output: [週末 京都 寺院巡 抹茶 パフェ]
}

func ExampleDeriveCategoryType() {
	// LoCoMo's category 1 on locomo10.json: evidence in two or more sessions
	// for 95 % of its questions.
	fmt.Println(datasets.DeriveCategoryType(datasets.CategoryStats{Category: 1, MultiSession: 0.954, WhenWhoWhere: 0.078}))
	// Output: aggregate
}

func ExampleTrimmedSpan() {
	// 15 runes: the first and last 3 (a quarter, rounded down) are dropped.
	fmt.Println(datasets.TrimmedSpan("ミスチルは口笛が一番好きです。"))
	// Output: ルは口笛が一番好き
}

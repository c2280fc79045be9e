package answer_test

import (
	"context"
	"fmt"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize/bigram"
)

func ExampleExtractive() {
	chunks := []memory.Result{
		chunk("c1", "family.json", "母|今日は寒いね", "自分|そうだね"),
		chunk("c2", "trip.json", "ユウキ|2泊目の宿、兼六庵にした！", "健太|温泉ある？"),
	}
	a, _ := answer.NewExtractive(bigram.New()).Answer(context.Background(), "2泊目の宿はどこ？", chunks)
	fmt.Println(a.Text)
	fmt.Println(a.Citations[0].ChunkID, a.Citations[0].MessageIDs)
	// Output:
	// 2泊目の宿、兼六庵にした！ 温泉ある？ [2]
	// c2 [c2-m1 c2-m2]
}

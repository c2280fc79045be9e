package ranking_test

import (
	"fmt"

	"github.com/linemem/linemem/lib/ranking"
)

func ExampleExplanation_String() {
	e := ranking.Explanation{Value: 0.75, Message: "fused", Children: []ranking.Explanation{
		{Value: 0.5, Message: "bm25 part"},
		{Value: 0.25, Message: "vector part"},
	}}
	fmt.Print(e)
	// Output:
	// 0.75  fused
	//   0.5  bm25 part
	//   0.25  vector part
}

func ExampleRun() {
	run := ranking.Run{"q1": {{ChunkID: "c2", Score: 3}, {ChunkID: "c1", Score: 1}}}
	qrels := ranking.Qrels{"q1": {"c1": 2}}
	for rank, h := range run["q1"] {
		fmt.Println(rank+1, h.ChunkID, qrels["q1"][h.ChunkID])
	}
	// Output:
	// 1 c2 0
	// 2 c1 2
}

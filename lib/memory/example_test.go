package memory_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/store"
)

// tinyExport is a LINE text export of two days of a family chat.
const tinyExport = `[LINE] 家族のトーク履歴
保存日時：2024/06/01 22:01

2024/05/02(木)
19:00	母	鍋に何を買えばいい？
19:03	自分	はくさい と とうふ
19:06	父	はーい

2024/05/20(月)
08:00	母	保険証はどこ？
08:02	自分	引き出しの二段目
`

// Open a memory over a store built in memory, search it and print each
// result's marked messages.
func Example() {
	st, err := store.Open(":memory:")
	if err != nil {
		panic(err)
	}
	defer st.Close()
	const name = "[LINE] 家族のトーク.txt"
	res, err := lineexport.ReadText(name, strings.NewReader(tinyExport))
	if err != nil {
		panic(err)
	}
	opts := chunking.DefaultOptions()
	chunks, err := chunking.Build(res.Messages, opts)
	if err != nil {
		panic(err)
	}
	if _, err := st.IngestSource(name, "example", int64(len(tinyExport)), opts, res.Messages, chunks); err != nil {
		panic(err)
	}

	m, err := memory.Open(st, memory.Options{})
	if err != nil {
		panic(err)
	}
	resp, err := m.Search(context.Background(), memory.Query{Text: "保険証どこ", K: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Retriever, resp.Tokenizer)
	for _, r := range resp.Results {
		for _, i := range r.Shown(1) {
			msg := r.Messages[i]
			fmt.Printf("%s %s: %s\n", msg.At.Format("01-02 15:04"), msg.Sender, memory.Highlight(msg.Text, msg.Matches, "[", "]"))
		}
	}
	// Output:
	// raw_text_bm25 everyday
	// 05-20 08:00 母: [保険証]はどこ？
	// 05-20 08:02 自分: 引き出しの二段目
}

package beyond_test

import (
	"fmt"
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/trec"
)

// TestAblationMethods: an empty tokenizer name is the protocol's tokenizer;
// the vector method is its own row block after the BM25 ones, whatever the
// tokenizers.
func TestAblationMethods(t *testing.T) {
	topics := []string{"花見の場所取り", "文化祭のポスター", "鍋の買い出し", "旅行のしおり", "保険証の場所", "誕生日の予約"}
	var chunks []chat.Chunk
	summaries := map[string]string{}
	qrels := trec.Qrels{}
	var qs []questions.Question
	for i, topic := range topics {
		id := fmt.Sprintf("c%d", i)
		chunks = append(chunks, chat.Chunk{ID: id, RawText: topic + "について話した"})
		summaries[id] = topic + "の相談"
		qid := fmt.Sprintf("q%d", i)
		qs = append(qs, questions.Question{QID: qid, Question: topic + "はどうなった？", Type: "fact"})
		qrels[qid] = map[string]int{id: 2}
	}
	for _, c := range []struct {
		name       string
		protocol   string // Protocol.Tokenizer
		tokenizers []string
		want       []string // methods, one block of rows each
	}{
		{"empty name", tokenize.Default, []string{""}, []string{"BM25 " + tokenize.Default, beyond.AblationVector}},
		{"empty name, other protocol", "char-bigram", []string{""}, []string{"BM25 char-bigram", beyond.AblationVector}},
		{"named", tokenize.Default, []string{tokenize.Default, "char-bigram"}, []string{"BM25 " + tokenize.Default, "BM25 char-bigram", beyond.AblationVector}},
		{"none", tokenize.Default, nil, []string{beyond.AblationVector}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := experiment.PaperProtocol()
			p.B, p.Seed, p.Tokenizer = 20, 1, c.protocol
			rows, err := beyond.Ablation(beyond.AblationInput{Chunks: chunks, Summaries: summaries, Questions: qs, Qrels: qrels, Tokenizers: c.tokenizers, Protocol: p})
			if err != nil {
				t.Fatal(err)
			}
			n := len(beyond.AblationVariants)
			if len(rows) != n*len(c.want) {
				t.Fatalf("%d rows, want %d variants × %d methods", len(rows), n, len(c.want))
			}
			for i, r := range rows {
				if want := c.want[i/n]; r.Method != want {
					t.Errorf("row %d (%s): method %q, want %q", i, r.Variant, r.Method, want)
				}
			}
		})
	}
}

package draft_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/questions/draft"
	"github.com/linemem/linemem/lib/redact"
)

func history(source string, n int) []chat.Message {
	var out []chat.Message
	for i := range n {
		at := time.Date(2024, 4, 1, 9, i, 0, 0, time.UTC)
		m := chat.Message{Source: source, SourceOrder: i, Date: "2024-04-01", Time: at.Format("15:04:05"), OccurredAt: at,
			Sender: "美香", Type: "text", Text: fmt.Sprintf("メッセージ%02d 電話は090-1234-5678", i)}
		m.ID = fmt.Sprintf("%016x", i+1)
		out = append(out, m)
	}
	return out
}

func TestWindowsFitTheBudgetAndKeepIDs(t *testing.T) {
	msgs := history("a.json", 40)
	one := utf8.RuneCountInString(draft.Line(msgs[0], msgs[0].Sender, msgs[0].Text)) + 1
	limit := 10*one + 3 // room for 10 lines
	red, _ := redact.New([]string{"phone"}, nil)
	ws := draft.Windows(map[string][]chat.Message{"a.json": msgs, "b.json": history("b.json", 3)}, []string{"a.json", "b.json"},
		draft.Options{WindowChars: limit, PerWindow: 2, Redactor: red})
	if len(ws) != 4+1 {
		t.Fatalf("%d windows, want 4 for 40 messages of 10 per window and 1 for b.json", len(ws))
	}
	total := 0
	for i, w := range ws {
		total += len(w.Messages)
		if w.Index != i || w.Redactions != len(w.Messages) {
			t.Errorf("window %d: index %d, %d redactions for %d messages", i, w.Index, w.Redactions, len(w.Messages))
		}
		if strings.Contains(w.Input, "090-1234-5678") || !strings.Contains(w.Input, "["+w.Messages[0].ID+"] 2024-04-01 09:") || !strings.Contains(w.Input, "作る質問の数: 2") {
			t.Errorf("window %d input:\n%s", i, w.Input)
		}
	}
	if total != 43 {
		t.Errorf("windows hold %d messages, want all 43", total)
	}
}

func TestParse(t *testing.T) {
	w := draft.Windows(map[string][]chat.Message{"a.json": history("a.json", 3)}, []string{"a.json"}, draft.Options{})[0]
	id := w.Messages[1].ID
	cases := []struct {
		name      string
		answer    string
		questions int
		problems  int
		wantErr   bool
	}{
		{"plain", `{"questions":[{"question":"電話番号は？","type":"named_entity","answer":"090","evidence":[{"message_id":"` + id + `","role":"answer"}]}]}`, 1, 0, false},
		{"code fence", "```json\n" + `{"questions":[{"question":"電話番号は？","type":"named_entity","evidence":[{"message_id":"` + id + `"}]}]}` + "\n```", 1, 0, false},
		{"unknown type and invented ID", `{"questions":[{"question":"何？","type":"other","evidence":[{"message_id":"` + id + `"},{"message_id":"ffff"}]}]}`, 1, 2, false},
		{"no evidence", `{"questions":[{"question":"何？","type":"contextual","evidence":[]}]}`, 0, 1, false},
		{"empty", `{"questions":[]}`, 0, 0, false},
		{"not JSON", `はい、質問を作りました。`, 0, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, problems, err := draft.Parse(c.answer, w)
			if (err != nil) != c.wantErr || len(got) != c.questions || len(problems) != c.problems {
				t.Fatalf("%d candidates, problems %q, error %v", len(got), problems, err)
			}
			for _, cand := range got {
				it := cand.Evidence[0]
				if it.MessageID != id || it.Source != "a.json" || it.Date != "2024-04-01" || it.Sender != "美香" || !strings.HasPrefix(w.Messages[1].Text, it.TextPrefix) || it.Role != "answer" {
					t.Errorf("evidence %+v does not quote message %s", it, id)
				}
				if cand.QID != draft.QID(cand.Question) {
					t.Errorf("qid %s, want %s", cand.QID, draft.QID(cand.Question))
				}
			}
		})
	}
}

func TestPromptIsOursAndJapanese(t *testing.T) {
	p := draft.Prompt()
	if !strings.Contains(p, "メッセージID") || !strings.Contains(p, `"questions"`) || len(draft.PromptSHA256()) != 64 {
		t.Errorf("prompt %q", p)
	}
}

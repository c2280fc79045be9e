package questions_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/questions"
)

func TestRead(t *testing.T) {
	in := "\ufeff{\"qid\": \"q1\", \"question\": \"歯医者の予約はいつ？\", \"type\": \"contextual\", \"extra\": 1}\n\n{\"qid\": \"q2\", \"question\": \"USB\", \"type\": \"named_entity\"}\n"
	qs, err := questions.Read("q.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].QID != "q1" || qs[0].Question != "歯医者の予約はいつ？" || qs[1].Type != questions.NamedEntity {
		t.Errorf("Read = %+v", qs)
	}
	t.Run("answer", func(t *testing.T) {
		in := `{"qid": "q1", "question": "店は？", "type": "named_entity", "answer": "焼肉ふじ屋"}` + "\n" +
			`{"qid": "q2", "question": "駅は？", "type": "named_entity", "answer": null}` + "\n"
		qs, err := questions.Read("q.jsonl", strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if qs[0].Answer != "焼肉ふじ屋" || qs[1].Answer != "" {
			t.Errorf("answers = %q, %q; want 焼肉ふじ屋 and none", qs[0].Answer, qs[1].Answer)
		}
	})
	t.Run("empty", func(t *testing.T) {
		qs, err := questions.Read("q.jsonl", strings.NewReader(""))
		if err != nil || len(qs) != 0 {
			t.Errorf("Read(empty) = %v, %v", qs, err)
		}
	})
}

func TestReadErrorsNameFileAndLine(t *testing.T) {
	first := `{"qid": "q1", "question": "a", "type": "contextual"}` + "\n"
	for name, second := range map[string]string{
		"malformed JSON":   `{"qid": "q2", `,
		"number qid":       `{"qid": 2, "question": "b", "type": "contextual"}`,
		"missing question": `{"qid": "q2", "type": "contextual"}`,
		"empty question":   `{"qid": "q2", "question": "", "type": "contextual"}`,
		"duplicate qid":    `{"qid": "q1", "question": "b", "type": "contextual"}`,
		"number answer":    `{"qid": "q2", "question": "b", "type": "contextual", "answer": 3}`,
		"invalid UTF-8":    "{\"qid\": \"q2\", \"question\": \"\xff\", \"type\": \"contextual\"}",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := questions.Read("q.jsonl", strings.NewReader(first+second+"\n"))
			var ie *questions.InputError
			if !errors.As(err, &ie) || ie.File != "q.jsonl" || ie.Line != 2 {
				t.Fatalf("err = %v, want an InputError at q.jsonl:2", err)
			}
		})
	}
}

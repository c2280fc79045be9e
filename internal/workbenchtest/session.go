package workbenchtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/workbench"
)

// Shape of the judging-session fixture: SessionDays conversations of
// SessionMessages messages (one chunk each, the window being 42), and
// SessionQuestions questions pooled to the top SessionDays of raw_text_bm25,
// so every question's pool holds every chunk: SessionQuestions ×
// SessionDays rows. The evidence message of question s01 is message
// EvidenceAt (from 1) of day EvidenceDay's chunk.
const (
	SessionDays      = 12
	SessionMessages  = 40
	SessionQuestions = 9
	EvidenceDay      = 7
	EvidenceAt       = 20
)

// Session describes the fixture's evidence.
type Session struct {
	EvidenceQID     string
	EvidenceChunk   string
	EvidenceMessage string
}

// Judging returns a fresh database at dir/session.db with the fixture
// written to dir/sources, ingested and pooled. Each day's first message
// names the plan every question asks about (予定), so BM25 over character
// bigrams returns every chunk; the other messages are small talk, one of
// them a photo stored without text.
func Judging(t testing.TB, dir string) (*store.Store, Session) {
	t.Helper()
	return JudgingOf(t, dir, SessionQuestions, SessionDays)
}

// JudgingOf is Judging with questions questions over days days (at most
// 28, EvidenceDay or more): questions × days pool rows.
func JudgingOf(t testing.TB, dir string, questions, days int) (*store.Store, Session) {
	t.Helper()
	if days < EvidenceDay || days > 28 {
		t.Fatalf("JudgingOf: %d days, want %d to 28", days, EvidenceDay)
	}
	byDate := map[string][]map[string]string{}
	smallTalk := []string{"うん", "了解", "ありがとう", "それな", "また連絡する", "ok", "笑", "なるほど"}
	for d := 1; d <= days; d++ {
		date := fmt.Sprintf("2024-06-%02d", d)
		var msgs []map[string]string
		for i := 1; i <= SessionMessages; i++ {
			m := map[string]string{"time": fmt.Sprintf("10:%02d", i), "sender": []string{"自分", "友達"}[i%2], "type": "text"}
			switch {
			case i == 1:
				m["text"] = fmt.Sprintf("%d日の予定どうする？", d)
			case d == EvidenceDay && i == EvidenceAt:
				m["text"] = "花火大会は8月3日の19時から河川敷で"
			case i == 7:
				m["type"], m["text"] = "photo", ""
			default:
				m["text"] = smallTalk[(d+i)%len(smallTalk)]
			}
			msgs = append(msgs, m)
		}
		byDate[date] = msgs
	}
	src := filepath.Join(dir, "sources")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(byDate)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(src, "session.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st := ingested(t, filepath.Join(dir, "session.db"), path)
	var qs []workbench.Question
	for q := 1; q <= questions; q++ {
		qs = append(qs, workbench.Question{QID: fmt.Sprintf("s%02d", q), Question: fmt.Sprintf("質問%dの予定は？", q), Type: "named_entity", Answer: fmt.Sprintf("答え%d", q)})
	}
	qs[0].Question, qs[0].Answer = "花火大会の予定はいつ？", "8月3日の19時から"
	ev := []gold.Evidence{{QID: "s01", Question: qs[0].Question, Type: qs[0].Type, Items: []gold.Item{{Source: "session.json",
		Date: fmt.Sprintf("2024-06-%02d", EvidenceDay), Time: fmt.Sprintf("10:%02d", EvidenceAt), Sender: "自分", TextPrefix: "花火大会は8月3日", Role: gold.RoleAnswer}}}}
	pool(t, st, workbench.PoolOptions{Questions: qs, Evidence: ev, EvidenceFile: "session evidence", Depth: days})
	msgs, err := st.Messages("session.json")
	if err != nil {
		t.Fatal(err)
	}
	var s Session
	s.EvidenceQID = "s01"
	for _, m := range msgs {
		if m.Date == ev[0].Items[0].Date && m.Text == "花火大会は8月3日の19時から河川敷で" {
			s.EvidenceMessage = m.ID
		}
	}
	chunks, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		for _, id := range c.MessageIDs {
			if id == s.EvidenceMessage {
				s.EvidenceChunk = c.ID
			}
		}
	}
	if s.EvidenceChunk == "" {
		t.Fatal("the session fixture's evidence message is in no chunk")
	}
	return st, s
}

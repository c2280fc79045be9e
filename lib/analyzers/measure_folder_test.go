package analyzers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
)

// lockerChat and wifiChat are two one-day chats; each answers one question
// with words the other never uses.
const (
	lockerChat = "[LINE] Chat history in Gym\nSaved on: 2024/07/01 21:10\n\n2024/03/02 Sat\n" +
		"09:10\tKen\tThe gym locker code is 4821\n09:12\tAya\tThanks Ken\n"
	wifiChat = "[LINE] Chat history in Home\nSaved on: 2024/07/01 21:10\n\n2024/03/02 Sat\n" +
		"10:10\tMika\tThe wifi password is sunflower\n10:11\tAya\tGot it\n"
)

// writeTwoChatFolder writes a data folder of lockerChat and wifiChat with
// four answerable questions — one per chat, one whose words appear nowhere
// (so its search has no results), one answered only by a summary's words —
// and returns its path.
func writeTwoChatFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sources"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"sources/[LINE] Gym.txt":  lockerChat,
		"sources/[LINE] Home.txt": wifiChat,
		"questions.jsonl": `{"qid": "q1", "question": "what is the gym locker code", "type": "named_entity"}
{"qid": "q2", "question": "what is the wifi password", "type": "named_entity"}
{"qid": "q3", "question": "zqxv", "type": "named_entity"}
{"qid": "q4", "question": "router settings", "type": "named_entity"}
`,
		"evidence.jsonl": `{"qid": "q1", "evidence": [{"source": "[LINE] Gym.txt", "date": "2024-03-02", "time": "09:10", "sender": "Ken", "text_prefix": "The gym locker", "role": "answer"}]}
{"qid": "q2", "evidence": [{"source": "[LINE] Home.txt", "date": "2024-03-02", "time": "10:10", "sender": "Mika", "text_prefix": "The wifi password", "role": "answer"}]}
{"qid": "q3", "evidence": [{"source": "[LINE] Gym.txt", "date": "2024-03-02", "time": "09:12", "sender": "Aya", "text_prefix": "Thanks", "role": "answer"}]}
{"qid": "q4", "evidence": [{"source": "[LINE] Home.txt", "date": "2024-03-02", "time": "10:10", "sender": "Mika", "text_prefix": "The wifi password", "role": "answer"}]}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// writeSummaries gives every chunk of the folder dir a summary; the Home
// chat's reads "router settings", words its messages never use.
func writeSummaries(t *testing.T, dir string) {
	t.Helper()
	c, err := analyzers.LoadFolder("two", dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, ch := range c.Chunks {
		summary := "a locker at the gym"
		if ch.Source == "[LINE] Home.txt" {
			summary = "router settings at home"
		}
		line, err := json.Marshal(map[string]string{"chunk_id": ch.ID, "summary": summary})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "summaries.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func outcomes(run *analyzers.EverydayRun, kind string) map[string]analyzers.Outcome {
	out := map[string]analyzers.Outcome{}
	for _, o := range run.Outcomes {
		if o.Kind == kind {
			out[o.QID] = o
		}
	}
	return out
}

// TestMeasureEverydayTwoChats checks the measurement on a folder of exactly
// two chats, each holding the answers of its own questions: a question
// whose search finds nothing is measured (shown and quoted false, confidence
// 0); the other-chat questions are asked against the folder without their
// chat, so their confidence falls below what the whole folder gives them.
func TestMeasureEverydayTwoChats(t *testing.T) {
	dir := writeTwoChatFolder(t)
	run, err := analyzers.MeasureEveryday("two", dir, analyzers.EverydayOptions{Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	answerable, other := outcomes(run, analyzers.Answerable), outcomes(run, analyzers.OtherChats)
	if len(answerable) != 4 {
		t.Fatalf("%d answerable outcomes, want 4", len(answerable))
	}
	if o := answerable["q3"]; o.Shown || o.Quoted || o.Confidence != 0 {
		t.Errorf("q3, whose words appear nowhere: %+v, want nothing shown or quoted at confidence 0", o)
	}
	for _, qid := range []string{"q1", "q2"} {
		if !answerable[qid].Shown {
			t.Errorf("%s: answer line not shown first over the whole folder", qid)
		}
		o, ok := other[qid]
		if !ok {
			t.Errorf("%s: not asked against the folder without its chat", qid)
			continue
		}
		if o.Confidence >= answerable[qid].Confidence {
			t.Errorf("%s: confidence %v without its chat, %v with it; want it lower without", qid, o.Confidence, answerable[qid].Confidence)
		}
	}
}

// TestMeasureEverydaySummaries checks that the folder's summaries.jsonl is
// imported: a question in words only a summary holds finds its chat's
// window with the summaries and nothing without them.
func TestMeasureEverydaySummaries(t *testing.T) {
	dir := writeTwoChatFolder(t)
	without, err := analyzers.MeasureEveryday("two", dir, analyzers.EverydayOptions{Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	writeSummaries(t, dir)
	with, err := analyzers.MeasureEveryday("two", dir, analyzers.EverydayOptions{Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	before, after := outcomes(without, analyzers.Answerable)["q4"], outcomes(with, analyzers.Answerable)["q4"]
	if before.Recall5 != 0 || after.Recall5 != 1 {
		t.Errorf("q4, in a summary's words only: Recall@5 %v without summaries, %v with them; want 0, 1", before.Recall5, after.Recall5)
	}
}

// TestMeasureEverydayIngestError checks that a source that cannot be
// ingested fails the measurement with an error naming it.
func TestMeasureEverydayIngestError(t *testing.T) {
	dir := writeTwoChatFolder(t)
	bad := filepath.Join(dir, "sources", "[LINE] Broken.txt")
	if err := os.WriteFile(bad, []byte("[LINE] Chat history in Broken\n\n09:10\tKen\tno date line above\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := analyzers.MeasureEveryday("two", dir, analyzers.EverydayOptions{Work: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "Broken.txt") {
		t.Errorf("error %v, want one naming Broken.txt", err)
	}
}

// TestMeasureEverydayBadSummaryLine checks that a summaries.jsonl line that
// is no summary fails the measurement with its file and line number.
func TestMeasureEverydayBadSummaryLine(t *testing.T) {
	dir := writeTwoChatFolder(t)
	rows := "{\"chunk_id\": \"a\", \"summary\": \"x\"}\n\n{\"summary\": \"no chunk\"}\n"
	if err := os.WriteFile(filepath.Join(dir, "summaries.jsonl"), []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := analyzers.MeasureEveryday("two", dir, analyzers.EverydayOptions{Work: t.TempDir()})
	if want := "summaries.jsonl:3: expected"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one with %q", err, want)
	}
}

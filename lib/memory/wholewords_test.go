package memory_test

import (
	"context"
	"path/filepath"
	"testing"
	"unicode"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize/kagome"
)

// katakanaLetter reports whether r continues a katakana word: a katakana
// letter, ー, or their half-width forms.
func katakanaLetter(r rune) bool {
	return 0x30A1 <= r && r <= 0x30FA || r == 0x30FC || 0xFF66 <= r && r <= 0xFF9F
}

// TestMarksFallOnWholeWords runs every question of the mixed-language
// history (its answerable, kanji and unanswerable sets), of the blind
// development and held-out sets (answerable and unanswerable) and of the
// synthetic corpus with the everyday defaults and checks every mark of
// every message of every result: it never starts or ends inside a Latin or
// katakana word, and it is never a lone particle or auxiliary (the marked
// text analysed alone is one morpheme tagged 助詞 or 助動詞).
func TestMarksFallOnWholeWords(t *testing.T) {
	morph, err := kagome.NewMorphology()
	if err != nil {
		t.Fatal(err)
	}
	mixed := filepath.Join("..", "..", "testdata", "mixed")
	synthetic := filepath.Join("..", "..", "data", "synthetic")
	sets := []struct {
		name  string
		st    *store.Store
		files []string
	}{
		{"mixed", mixedStore(t), []string{filepath.Join(mixed, "questions.jsonl"), filepath.Join(mixed, "noanswer.jsonl")}},
		{"synthetic", nil, []string{filepath.Join(synthetic, "questions.jsonl")}},
	}
	sets[1].st = storeOf(t, filepath.Join(synthetic, "sources"))
	for _, name := range []string{"devblind", "heldout"} {
		dir := filepath.Join("..", "..", "testdata", name)
		sets = append(sets, struct {
			name  string
			st    *store.Store
			files []string
		}{name, storeOf(t, filepath.Join(dir, "sources")), []string{filepath.Join(dir, "questions.jsonl"), filepath.Join(dir, "noanswer.jsonl")}})
	}
	kanji, err := questionsOfEvidence(filepath.Join(mixed, "evidence_kanji.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	marks := 0
	for _, set := range sets {
		m, err := memory.Open(set.st, memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var qs []string
		for _, f := range set.files {
			read, err := questions.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range read {
				qs = append(qs, q.Question)
			}
		}
		if set.name == "mixed" {
			qs = append(qs, kanji...)
		}
		for _, q := range qs {
			resp, err := m.Search(context.Background(), memory.Query{Text: q, K: memory.DefaultK})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range resp.Results {
				for _, msg := range r.Messages {
					for _, s := range msg.Matches {
						marks++
						text := msg.Text
						shown := text[max(0, s.Start-40):min(len(text), s.End+40)]
						before, _ := lastRune(text[:s.Start])
						after, _ := firstRune(text[s.End:])
						first, _ := firstRune(text[s.Start:])
						last, _ := lastRune(text[:s.End])
						latin := func(r rune) bool { return unicode.Is(unicode.Latin, r) }
						switch {
						case latin(first) && latin(before) || latin(last) && latin(after):
							t.Errorf("%s %q: %q marks %q inside a Latin word", set.name, q, shown, text[s.Start:s.End])
						case katakanaLetter(first) && katakanaLetter(before) && first != 'ー' || katakanaLetter(last) && katakanaLetter(after):
							t.Errorf("%s %q: %q marks %q inside a katakana word", set.name, q, shown, text[s.Start:s.End])
						}
						if ms := morph.Morphemes(text[s.Start:s.End]); len(ms) == 1 && len(ms[0].POS) > 0 && (ms[0].POS[0] == "助詞" || ms[0].POS[0] == "助動詞") {
							t.Errorf("%s %q: %q marks the lone %s %q", set.name, q, shown, ms[0].POS[0], text[s.Start:s.End])
						}
					}
				}
			}
		}
	}
	if marks == 0 {
		t.Fatal("no mark at all: nothing was checked")
	}
	t.Logf("%d marks checked", marks)
}

// storeOf ingests every LINE export under dir into a new store.
func storeOf(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "me.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ingestDir(t, st, dir)
	return st
}

// questionsOfEvidence lists the questions of an evidence file.
func questionsOfEvidence(path string) ([]string, error) {
	evidence, err := gold.ReadEvidenceFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ev := range evidence {
		out = append(out, ev.Question)
	}
	return out, nil
}

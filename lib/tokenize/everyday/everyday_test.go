package everyday_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/linemem/linemem/lib/tokenize/everyday"
	"github.com/linemem/linemem/lib/tokenize/token"
)

func newAnalyzer(t testing.TB) *everyday.Analyzer {
	t.Helper()
	a, err := everyday.New()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// reading lists the reading field's bigrams of a katakana reading.
func reading(kana string) []string {
	rs := []rune(kana)
	var out []string
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, everyday.ReadingPrefix+string(rs[i:i+2]))
	}
	return out
}

func terms(parts ...[]string) []string { return slices.Concat(parts...) }

func TestTokens(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"empty", "", nil},
		{"no terms", "…！？ 😀", nil},
		// English words: stop-listed and Snowball-stemmed, case and width folded.
		// Each with its loanword key (e: for an English word) when it has
		// three consonant classes:
		// bring B R N G (the r before i is sounded), tennis T N S, balls B R S
		// (ll counts once), brought B R T (gh is silent).
		{"stop words dropped, words stemmed", "What do I need to bring to tennis?", []string{"need", "bring", "e:BRNG", "tenni", "e:TNS"}},
		{"plural and tense share a stem", "Bring the balls, I brought mine", []string{"bring", "e:BRNG", "ball", "e:BRS", "brought", "e:BRT", "mine"}},
		{"full-width Latin", "ＵＳＢ", []string{"usb"}},
		{"apostrophe splits; s and t are stop words", "Ken's phone, don't", []string{"ken", "phone"}},
		// Katakana: whole words, width folded, long vowel stemmed from 4
		// characters, each with its spelling key (k:).
		{"katakana word whole", "チョコレート", []string{"チョコレート", "k:チョコレート", "p:TKRT"}},
		{"a short katakana word is its own term", "コート", []string{"コート", "k:コート"}},
		{"long vowel stemmed", "コンピューター", []string{"コンピュータ", "k:コンピュータ", "p:KNPT"}},
		{"without long vowel", "コンピュータ", []string{"コンピュータ", "k:コンピュータ", "p:KNPT"}},
		// ・ joins the parts of a katakana name into one word.
		{"a middle dot joins a katakana name", "バル・ソーレ", []string{"バルソーレ", "k:バルソーレ", "p:BRSR"}},
		{"a half-width middle dot too", "ﾊﾞﾙ･ｿｰﾚ", []string{"バルソーレ", "k:バルソーレ", "p:BRSR"}},
		{"a middle dot ending the text joins nothing", "バル・", []string{"バル", "k:バル"}},
		// an accented Latin word is stemmed but has no loanword key
		{"no key for a word beyond ASCII", "café crème", []string{"café", "crème"}},
		{"a middle dot before kanji separates", "ソーレ・駅", terms([]string{"ソーレ", "k:ソーレ", "駅", "j:エキ"}, reading("エキ"))},
		{"four characters stemmed", "コーヒー", []string{"コーヒ", "k:コーヒ"}},
		{"two characters kept", "ビー", []string{"ビー", "k:ビー"}},
		{"half-width katakana folded and stemmed", "ﾊﾞｰﾍﾞｷｭｰ", []string{"バーベキュ", "k:バーベキュ"}},
		// Kanji and kana: base form (an uninflected one with its spelling
		// key, j: and its reading), reading bigrams, kanji bigrams.
		{"kanji compound", "駐車場", terms([]string{"駐車", "j:チュウシャ"}, reading("チュウシャジョウ"), []string{"g:駐車", "g:車場"})},
		{"the same word in hiragana", "ちゅうしゃじょう", terms([]string{"ちゅうする"}, reading("チュウシャジョウ"))},
		{"okurigana compound", "買い物", terms([]string{"買い物", "j:カイモノ"}, reading("カイモノ"))},
		{"its hiragana spelling, read as かい|も|の", "かいもの", terms([]string{"かい", "j:カイ"}, reading("カイモ"))},
		{"verb in base form, auxiliary dropped", "行った", terms([]string{"行く"}, reading("イッ"))},
		{"particles and auxiliaries after a word are never terms", "駅前だったのは", terms([]string{"駅前", "j:エキマエ"}, reading("エキマエ"), []string{"g:駅前"})},
		{"a question ending has no term", "なんだっけ", nil},
		// Numbers, times and dates.
		{"digit groups joined", "3,000", []string{"3000"}},
		{"plain number", "3000", []string{"3000"}},
		{"full-width digit groups", "３，０００", []string{"3000"}},
		{"full-width digits", "３０００", []string{"3000"}},
		{"hour with 時", "19時", []string{"19:00"}},
		{"clock", "19:00", []string{"19:00"}},
		{"pm", "7pm", []string{"19:00"}},
		{"PM after a space", "7 PM", []string{"19:00"}},
		{"午後", "午後7時", []string{"19:00"}},
		{"12am is midnight", "12am", []string{"00:00"}},
		{"half past", "7時半", []string{"07:30"}},
		{"minutes with 分", "7時30分", []string{"07:30"}},
		{"clock with minutes", "7:30", []string{"07:30"}},
		{"hours of a duration are no time", "2時間", terms([]string{"2", "時間", "j:ジカン"}, reading("ジカン"), []string{"g:時間"})},
		{"month/day", "12/7", []string{"12/7"}},
		{"month and day in kanji", "12月7日", []string{"12/7"}},
		{"year/month/day", "2024/12/07", []string{"2024", "12/7"}},
		{"year, month and day in kanji", "2024年12月7日", []string{"2024", "12/7"}},
		{"a list of numbers is no number", "1,2,3", []string{"1", "2", "3"}},
		{"three slashes are no date", "3/4/5", []string{"3", "4", "5"}},
		{"25 is no hour", "25:00", []string{"25", "00"}},
		// Kanji numerals before a counter are numbers.
		{"kanji thousands before 円", "三千円", terms([]string{"3000", "円", "j:エン"}, reading("エン"))},
		{"kanji hour and half", "三時半", []string{"03:30"}},
		{"kanji month and day", "十二月五日", []string{"12/5"}},
		{"positional kanji", "三千五百円", terms([]string{"3500", "円", "j:エン"}, reading("エン"))},
	}
	a := newAnalyzer(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := a.Tokens(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestLoanwordsMeetAcrossScripts: a question's katakana word finds the
// English word that sounds alike in a text, and the other way round,
// through one shared key (the question's key under the other script's
// prefix).
func TestLoanwordsMeetAcrossScripts(t *testing.T) {
	a := newAnalyzer(t)
	for _, c := range []struct{ key, katakana, english string }{
		{"PRSKT", "プロジェクター", "projector"},
		{"PRSKT", "プロジェクター", "PROJECTOR"},
		{"BSTRN", "ベジタリアン", "vegetarian"},
		{"KTN", "カーテン", "curtain"},
		{"PKS", "パッケージ", "package"},
		{"BSD", "バースデー", "birthday"},
		{"PRSNT", "プレゼント", "present"},
		{"STSN", "ステーション", "station"},
		{"KNP", "キャンプ", "camp"},
		{"DNG", "ウェディング", "wedding"},
		{"KNPT", "コンピューター", "computer"}, // the final r before no vowel is silent
	} {
		meetThroughOneKey(t, a, c.key, c.katakana, c.english)
	}
}

// meetThroughOneKey checks that x asked finds y written, and y asked finds
// x written, through one shared term: a key ending in key.
func meetThroughOneKey(t *testing.T, a *everyday.Analyzer, key, x, y string) {
	t.Helper()
	for _, pair := range [][2]string{{x, y}, {y, x}} {
		shared := shared(a, pair[0], pair[1])
		if len(shared) != 1 || !strings.HasSuffix(shared[0], ":"+key) {
			t.Errorf("question %q, text %q: shared terms %q, want the one key %s", pair[0], pair[1], shared, key)
		}
	}
}

// shared returns the terms of question (as a question) that text (as a
// document) holds.
func shared(a *everyday.Analyzer, question, text string) []string {
	doc := a.Tokens(text)
	var out []string
	for _, tk := range a.AnalyzeQuestion(question) {
		if slices.Contains(doc, tk.Term) && !slices.Contains(out, tk.Term) {
			out = append(out, tk.Term)
		}
	}
	return out
}

// TestLoanwordKeysApart: a key never joins two words of one script ("class"
// and "clothes" share KRS), words that only look or sound a little alike
// share no key, and keys shorter than MinPhoneticKey are no term.
func TestLoanwordKeysApart(t *testing.T) {
	a := newAnalyzer(t)
	for _, pair := range [][2]string{{"class", "clothes"}, {"projector", "protector"}, {"カーテン", "カード"}, {"ドライヤー", "ドライブ"}, {"チョコレート", "コート"}, {"curtain", "カード"}} {
		for _, p := range [][2]string{pair, {pair[1], pair[0]}} {
			if got := shared(a, p[0], p[1]); got != nil {
				t.Errorf("question %q, text %q share %q, want nothing", p[0], p[1], got)
			}
		}
	}
	for _, short := range []string{"コート", "zoom", "ズーム", "cat", "ケーキ", "エマ"} {
		for _, term := range a.Tokens(short) {
			if strings.HasPrefix(term, everyday.KatakanaKeyPrefix) || strings.HasPrefix(term, everyday.LatinKeyPrefix) {
				t.Errorf("%s: loanword term %q, want none (key under %d consonants)", short, term, everyday.MinPhoneticKey)
			}
		}
	}
}

// TestVariantsMeet holds the forms a person may write for one thing to one
// shared term.
func TestVariantsMeet(t *testing.T) {
	a := newAnalyzer(t)
	cases := []struct {
		term     string
		variants []string
	}{
		{"3000", []string{"3,000", "3000", "３，０００", "３０００", "3,000円"}},
		{"19:00", []string{"19時", "19:00", "7pm", "7 p.m", "午後7時", "１９時"}},
		{"07:30", []string{"7:30", "7時半", "7時30分", "７：３０"}},
		{"12/7", []string{"12/7", "12月7日", "１２／７", "2024年12月7日"}},
		{"コンピュータ", []string{"コンピューター", "コンピュータ", "ｺﾝﾋﾟｭｰﾀｰ"}},
		{"r:イモ", []string{"買い物", "かいもの", "カイモノ"}},
		{"r:ャジ", []string{"駐車場", "ちゅうしゃじょう"}},
		{"3000", []string{"三千円", "3000円"}},
		{"1", []string{"一等", "1等"}},
		{"2024", []string{"二〇二四年", "2024年"}},
		{"12/5", []string{"十二月五日", "12月5日"}},
		{"バルソーレ", []string{"バル・ソーレ", "バルソーレ", "ﾊﾞﾙｿｰﾚ"}},
	}
	for _, c := range cases {
		for _, v := range c.variants {
			if c.term == "19:00" && v == "7 p.m" {
				if slices.Contains(a.Tokens(v), c.term) {
					t.Errorf("%q: p.m is no pm, yet it gives %q", v, c.term)
				}
				continue
			}
			if c.term == "r:イモ" && v == "カイモノ" {
				// A katakana word is one term (with its spelling and
				// loanword keys, K M N): it does not read as bigrams. It
				// meets 買い物 through the spelling field
				// (TestSpellingsMeetAcrossScripts).
				if got := a.Tokens(v); !reflect.DeepEqual(got, []string{"カイモノ", "k:カイモノ", "p:KMN"}) {
					t.Errorf("Tokens(%q) = %q, want one katakana term and its keys", v, got)
				}
				continue
			}
			if got := a.Tokens(v); !slices.Contains(got, c.term) {
				t.Errorf("Tokens(%q) = %q, want it to hold %q", v, got, c.term)
			}
		}
	}
}

// TestAnalyzeRanges checks that every term's range is a slice of the text as
// written and, for a Latin, katakana or number term, that the slice read
// again gives the term (a base form or a bigram need the words around).
func TestAnalyzeRanges(t *testing.T) {
	texts := []string{
		"ﾊﾞｰﾍﾞｷｭｰは１９時から、Ｔｅｎｎｉｓ Club!",
		"Bringing BALLS to the court 🎾 at 10am",
		"ｲﾀﾘｱﾝ行こ〜 e\u0301clair ㍿",
		"駐車場に車を停めた。ちゅうしゃじょうは３，０００円",
		"金沢旅行の準備で自分が引き受けたことは何？",
	}
	a := newAnalyzer(t)
	for _, text := range texts {
		toks := a.Analyze(text)
		if got, want := len(toks), len(a.Tokens(text)); got != want {
			t.Errorf("%q: Analyze gives %d terms, Tokens %d", text, got, want)
		}
		for _, tk := range toks {
			if tk.Start < 0 || tk.End > len(text) || tk.Start >= tk.End {
				t.Fatalf("%q: term %q has range [%d,%d)", text, tk.Term, tk.Start, tk.End)
			}
			if strings.ContainsFunc(tk.Term, func(r rune) bool {
				return r == ':' || r == '/' || unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r)
			}) {
				continue
			}
			if got := a.Tokens(text[tk.Start:tk.End]); len(got) == 0 || got[0] != tk.Term {
				t.Errorf("%q: term %q at %q reads as %q", text, tk.Term, text[tk.Start:tk.End], got)
			}
		}
	}
}

func TestQueryTokensRepeatByWeight(t *testing.T) {
	a := newAnalyzer(t)
	got := a.QueryTokens("金沢")
	want := 0
	for _, term := range a.Tokens("金沢") {
		want += everyday.Weight(term)
	}
	if len(got) != want {
		t.Errorf("QueryTokens(金沢) = %q: %d terms, want Σ weights = %d", got, len(got), want)
	}
}

// TestSendClockIsNoTerm: in a raw_text line the time the message was sent
// is no term; its date, its sender and a time written in the message are,
// and every term keeps its bytes.
func TestSendClockIsNoTerm(t *testing.T) {
	a := newAnalyzer(t)
	text := "2024-06-10 08:30 翔太: 雨やばい\n2024-06-10 08:31 ゆい: 8時半集合で"
	toks := a.Analyze(text)
	got := map[string]string{}
	for _, tk := range toks {
		got[tk.Term] = text[tk.Start:tk.End]
	}
	if n := slices.Index(token.Terms(toks), "08:31"); n >= 0 || strings.Count(strings.Join(token.Terms(toks), " "), "08:30") != 1 {
		t.Errorf("a send time is a term: %q", token.Terms(toks))
	}
	for term, bytes := range map[string]string{"08:30": "8時半", "2024": "2024", "翔太": "翔太", "雨": "雨"} {
		if got[term] != bytes {
			t.Errorf("term %q read from %q, want %q (terms %q)", term, got[term], bytes, token.Terms(toks))
		}
	}
	if q := a.Tokens("8時半"); !slices.Contains(q, "08:30") {
		t.Errorf("a question's 8時半 reads %q, want 08:30", q)
	}
}

// TestFieldName: every field but the base one has a name, and each of the
// analyzer's terms of a text that reaches every field is named by its
// prefix.
func TestFieldName(t *testing.T) {
	a := newAnalyzer(t)
	for _, tc := range []struct{ term, want string }{
		{"駐車", ""},
		{"チョコレート", ""},
		{"3000", ""},
		{"19:00", ""},
		{everyday.ReadingPrefix + "チュ", "reading bigram"},
		{everyday.FallbackPrefix + "駐車", "kanji bigram"},
		{everyday.KatakanaKeyPrefix + "TKRT", "loanword key: the sound of a katakana word"},
		{everyday.LatinKeyPrefix + "PRSKT", "loanword key: the sound of an English word"},
		{everyday.KatakanaSpellingPrefix + "ゴミ", "spelling key: a katakana word as written"},
		{everyday.ReadingSpellingPrefix + "ゴミ", "spelling key: the reading of a kanji or hiragana word"},
	} {
		if got := a.FieldName(tc.term); got != tc.want {
			t.Errorf("FieldName(%q) = %q, want %q", tc.term, got, tc.want)
		}
	}
	for _, term := range a.Tokens("駐車場でﾁｮｺﾚｰﾄとprojectorとゴミ 3,000円 7pm") {
		if named := a.FieldName(term) != ""; named != everyday.FieldTerm(term) {
			t.Errorf("%q: named %v, a field term %v", term, named, everyday.FieldTerm(term))
		}
	}
}

func ExampleAnalyzer_Analyze() {
	a, err := everyday.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	text := "ﾁｮｺﾚｰﾄ 3,000円, 7pm"
	for _, t := range a.Analyze(text) {
		fmt.Printf("%s %q\n", t.Term, text[t.Start:t.End])
	}
	// Output:
	// チョコレート "ﾁｮｺﾚｰﾄ"
	// k:チョコレート "ﾁｮｺﾚｰﾄ"
	// p:TKRT "ﾁｮｺﾚｰﾄ"
	// 3000 "3,000"
	// 円 "円"
	// j:エン "円"
	// r:エン "円"
	// 19:00 "7pm"
}

// FuzzAnalyze: chat text is untrusted input. For any text the analyzer
// returns, without panicking, terms over ordered-start, non-empty ranges of
// the text, the same terms Tokens returns.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"駐車場に車を停めた", "ﾊﾞｰﾍﾞｷｭｰ 3,000円 7pm", "午後12時半", "2024/12/07", "かいもの\xffいった", "㍿ e\u0301clair", "三千五百円", "バル・ソーレ・", "二〇二四年十二月", "projector tion", "12/", "午後", "1,", "7時", ""} {
		f.Add(s)
	}
	a := newAnalyzer(f)
	f.Fuzz(func(t *testing.T, text string) {
		toks := a.Analyze(text)
		if got, want := len(toks), len(a.Tokens(text)); got != want {
			t.Fatalf("Analyze gives %d terms, Tokens %d", got, want)
		}
		for _, tk := range toks {
			if tk.Term == "" || tk.Start < 0 || tk.End > len(text) || tk.Start >= tk.End {
				t.Fatalf("%+q: term %+v is no range of the text", text, tk)
			}
		}
	})
}

// TestKanjiNumeralsNeedACounter: kanji numerals are numbers only before a
// counter and not right after another kanji or a digit, so words that hold
// them stay words.
func TestKanjiNumeralsNeedACounter(t *testing.T) {
	a := newAnalyzer(t)
	if got := a.Tokens("2三千円"); slices.Contains(got, "3000") || slices.Contains(got, "23000") {
		t.Errorf("2三千円: %q, want the kanji run after a digit left as written", got)
	}
	// 第一回: 一 follows a kanji and precedes a counter; 残り十: the run ends
	// the text
	for _, text := range []string{"一緒に行こう", "十分だよ", "統一感", "第一印象", "一応", "第一回", "残り十"} {
		for _, term := range a.Tokens(text) {
			if strings.Trim(term, "0123456789") == "" {
				t.Errorf("%s: number term %q, want none", text, term)
			}
		}
	}
}

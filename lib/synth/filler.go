package synth

import (
	"math/rand/v2"
	"strings"
)

// pools hold the values that {slot} references draw from. Everything is
// invented or generic.
var pools = map[string][]string{
	"food":    {"ラーメン", "焼肉", "パスタ", "カレー", "寿司", "たこ焼き", "お好み焼き", "餃子", "ハンバーガー", "つけ麺", "火鍋", "タイ料理", "もんじゃ", "唐揚げ定食", "パンケーキ", "スンドゥブ", "ピザ", "担々麺", "牛タン", "オムライス"},
	"place":   {"渋谷", "新宿", "池袋", "吉祥寺", "下北沢", "横浜", "大宮", "立川", "町田", "中野", "高円寺", "恵比寿", "川崎", "北千住", "柏", "上野", "品川", "自由が丘"},
	"day":     {"月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜", "明日", "明後日", "来週の水曜", "今週末", "週明け", "来週の金曜", "今度の土曜"},
	"time":    {"10時", "11時半", "12時", "13時", "14時", "15時", "16時", "17時", "18時", "18時半", "19時", "19時半", "20時"},
	"item":    {"充電器", "傘", "折りたたみ傘", "イヤホン", "財布", "モバイルバッテリー", "定期", "学生証", "ノート", "筆箱", "パーカー", "水筒", "鍵", "メガネ"},
	"movie":   {"『星降る街のカフェ』", "『ミッドナイト・ランナー』", "『海辺のアトリエ』", "『ブルーフェイズ』", "『シグナル7』", "『さよならの温度』", "『雷鳴の王国』"},
	"shop":    {"サイゼ", "鳥貴族", "マック", "コメダ", "ドトール", "スタバ", "ガスト", "すき家", "磯丸水産", "くら寿司", "しゃぶ葉", "日高屋"},
	"store":   {"無印", "ユニクロ", "ロフト", "ドンキ", "ヨドバシ", "ニトリ", "ハンズ", "GU"},
	"subject": {"統計学", "線形代数", "マクロ経済", "英語", "民法", "心理学", "社会学", "情報科学", "簿記", "中国語", "ミクロ経済", "会計学"},
	"game":    {"スプラ", "マリカ", "スマブラ", "ポケモン", "モンハン", "APEX", "桃鉄"},
	"dish":    {"肉じゃが", "カレー", "ハンバーグ", "オムライス", "グラタン", "生姜焼き", "鍋", "餃子", "チャーハン", "パエリア"},
	"drink":   {"カフェラテ", "抹茶ラテ", "アイスコーヒー", "チャイ", "ココア", "レモネード"},
	"court":   {"A", "B", "C", "1番", "2番", "3番"},
	"snack":   {"ポテチ", "チョコ", "グミ", "アイス", "プリン", "クッキー"},
	"weather": {"雨", "雪", "台風", "大雨", "雷"},
	"mood":    {"ねむい", "だるい", "疲れた", "お腹すいた", "ひま", "帰りたい"},
	"hobby":   {"カメラ", "ギター", "筋トレ", "ランニング", "料理", "読書", "サウナ", "ボルダリング"},
	"spot":    {"兼六園", "ひがし茶屋街", "近江町市場", "21世紀美術館", "金沢城公園", "主計町"},
	"chore":   {"洗濯", "掃除", "ゴミ出し", "皿洗い", "買い出し"},
	"month":   {"1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"},
	"task":    {"議事録", "見積もり", "週報", "テスト仕様書", "顧客リスト", "デモ環境", "レビュー指摘"},
	"client":  {"東西フーズ", "みなと電機", "ひかり薬品", "山手ロジ", "緑川建設"},
}

// fillerTemplate is one everyday exchange: its lines and how a summary would
// describe it (full with details, short without).
type fillerTemplate struct {
	where string // comma-separated kinds or source keys; "" means anywhere
	lines []string
	full  string
	short string
}

// longChance thins out templates that paste a very long text: only a few
// windows should hit the render limit.
const longChance = 0.05

func (t fillerTemplate) long() bool {
	for _, l := range t.lines {
		if strings.Contains(l, "[long:") {
			return true
		}
	}
	return false
}

func (t fillerTemplate) fits(src *source) bool {
	if t.where == "" {
		return true
	}
	for _, w := range strings.Split(t.where, ",") {
		if w == src.kind || w == src.key {
			return true
		}
	}
	return false
}

// fillerSession builds n messages of everyday chatter in src.
func (w *world) fillerSession(rng *rand.Rand, src *source, n int) *session {
	sess := &session{}
	for len(sess.msgs) < n {
		sess.msgs = append(sess.msgs, w.fillerExchange(rng, src)...)
	}
	sess.msgs = sess.msgs[:n]
	for i := range sess.msgs {
		m := &sess.msgs[i]
		switch p := rng.Float64(); {
		case p < 0.0008:
			m.clock = clockMissing
		case p < 0.0012:
			m.clock = clockEmpty
		case p < 0.00135:
			m.clock = clockBroken
		}
	}
	return sess
}

// fillerExchange draws one everyday exchange that fits src.
func (w *world) fillerExchange(rng *rand.Rand, src *source) []msg {
	var t fillerTemplate
	for {
		t = fillerTemplates[rng.IntN(len(fillerTemplates))]
		if t.fits(src) && (!t.long() || rng.Float64() < longChance) {
			break
		}
	}
	r := pickRoles(rng, src, "")
	sl := newSlots(rng, nil)
	sl.fixed = withNames(nil, r)
	ep := w.addEpisode(sl.fill(t.full), sl.fill(t.short))
	return noisy(rng, src, r, render(rng, src, r, sl, t.lines, ep))
}

// shortFillerExchange is fillerExchange without very long pasted texts, for
// the chatter around a planted exchange: a long paste there could push the
// evidence out of every window.
func (w *world) shortFillerExchange(rng *rand.Rand, src *source) []msg {
	for {
		ms := w.fillerExchange(rng, src)
		long := false
		for _, m := range ms {
			long = long || len(m.text) > 1000
		}
		if !long {
			return ms
		}
	}
}

var fillerTemplates = []fillerTemplate{
	// anywhere
	{"", []string{"A|{day}ひま？", "B|ひまだよー", "A|{food}行かん？", "B|行く！どこ？", "A|{place}の駅前のとこ", "B|{time}でいい？", "A|おけ"},
		"{P}と{day}に{place}で{food}を食べる約束をし、{time}集合にした。", "{P}と食事の約束をした。"},
	{"", []string{"B|{weather}やばくない？", "A|{item}忘れた…", "B|コンビニで買いな", "A|それしかないか"},
		"{weather}の話題になり、自分は{item}を忘れたとこぼした。", "天気の話をした。"},
	{"", []string{"A|{movie}見た？", "B|まだ！おもしろい？", "A|めっちゃよかった\nラスト泣いた", "B|今度見るわ"},
		"自分が映画{movie}の感想を伝え、{P}に勧めた。", "映画の感想を話した。"},
	{"", []string{"B|今夜{game}やる？", "A|やるー{time}からなら", "B|りょ", "B|[sticker]"},
		"{P}と夜に{game}で遊ぶ約束をした。", "ゲームで遊ぶ約束をした。"},
	{"", []string{"A|{mood}", "B|わかる", "A|昨日3時まで起きてた", "B|寝な笑"},
		"寝不足や疲れについての雑談。", "他愛ない雑談。"},
	{"", []string{"A|[photo]", "A|{place}きた", "B|いいなー", "B|なに食べたの", "A|{food}"},
		"自分が{place}に出かけて{food}を食べたことを写真付きで共有した。", "出かけた先の写真を共有した。"},
	{"", []string{"B|これ見て {url}", "A|なにこれ笑", "B|{place}に新しくできた{food}の店", "A|行きたい"},
		"{P}が{place}に新しくできた{food}の店の記事を共有した。", "{P}がお店の記事を共有した。"},
	{"", []string{"B|{item}忘れてない？", "A|え、うそ", "B|机の上にあったよ", "A|まじか明日取りに行く🙏"},
		"{P}に{item}の忘れ物を指摘され、翌日取りに行くことにした。", "忘れ物の連絡があった。"},
	{"", []string{"A|おすすめの{drink}の店ある？", "B|{place}の{shop}の近くにあるとこ", "B|{url}", "A|ありがと！"},
		"{P}に{drink}のおいしい店を教えてもらった。", "お店を教えてもらった。"},
	{"", []string{"B|[missed]", "B|ごめん間違えた笑", "A|おけ"},
		"{P}から間違い電話があった。", ""},
	{"", []string{"A|[call]", "A|ありがと、助かった", "B|いえいえ"},
		"{P}と通話して用件を済ませた。", "{P}と通話した。"},
	{"", []string{"B|最近{hobby}始めた", "A|まじ？意外", "B|けっこうハマってる", "A|今度教えて"},
		"{P}が最近{hobby}を始めたと話した。", "趣味の話をした。"},
	{"", []string{"A|{snack}食べすぎた", "B|w", "A|止まらん", "B|わかる"},
		"お菓子の雑談。", ""},
	{"", []string{"B|{day}{place}でセールあるらしい", "A|{store}？", "B|そう、{item}安くなってる", "A|見に行こうかな"},
		"{P}から{place}の{store}のセール情報を聞いた。", "買い物の話をした。"},
	{"", []string{"A|電車止まってる", "B|え、どこ線？", "A|人身事故で{place}あたり", "B|おつかれ…"},
		"電車の遅延で自分が足止めされた話。", "移動中のトラブルの話。"},
	{"", []string{"B|誕生日おめでと！🎉", "A|ありがとう！！", "B|今年もよろしく", "A|こちらこそ笑"},
		"{P}が誕生日を祝ってくれた。", "誕生日のあいさつ。"},
	{"", []string{"A|{chore}やってない…", "B|やりな", "A|明日やる", "B|それやらないやつ笑"},
		"家事をさぼっている話で盛り上がった。", ""},
	{"", []string{"B|{place}の{food}並んでる", "B|[photo]", "A|何分待ち？", "B|40分くらい", "A|がんば"},
		"{P}が{place}で{food}の行列に並んでいると報告した。", "{P}が外出先の様子を送った。"},
	{"", []string{"A|来月の予定まだわからん", "B|決まったら教えて", "A|りょ"},
		"予定がまだ決まっていないという連絡。", ""},
	{"", []string{"B|[file:スクショ.png]", "B|これどう思う？", "A|いいと思う", "A|色はもう一個の方が好きかも"},
		"{P}に画像を見せられて意見を聞かれた。", "意見を聞かれた。"},

	// partner
	{"partner", []string{"B|おやすみ〜", "A|おやすみ😴"}, "おやすみのあいさつ。", ""},
	{"partner", []string{"B|いま帰った", "A|おつかれ！", "B|今日{subject}の小テストだった", "A|どうだった？", "B|たぶん大丈夫"},
		"{P}が帰宅を知らせ、{subject}の小テストの話をした。", "{P}の一日の報告。"},
	{"partner", []string{"B|今日{dish}作った", "B|[photo]", "A|うまそう！", "A|今度作って", "B|いいよー"},
		"{P}が{dish}を作った写真を送り、今度作ってもらう約束をした。", "{P}が料理の写真を送った。"},
	{"partner", []string{"A|{day}どこ行きたい？", "B|{place}で{movie}見たい", "A|いいね", "A|そのあと{food}食べよ", "B|さんせい"},
		"{P}とのデートで{place}で映画{movie}を見て{food}を食べる案が出た。", "{P}とデートの行き先を相談した。"},
	{"partner", []string{"A|さっきはごめん", "B|ううん、こっちこそ", "A|{day}会えるの楽しみにしてる", "B|うん☺️"},
		"ちょっとした行き違いを謝り合い、次に会う日を楽しみにしていると伝え合った。", "仲直りのやり取り。"},
	{"partner", []string{"B|会いたいなー", "A|{day}会えるよ", "B|長い笑", "A|[sticker]"},
		"{P}と会える日を待ち遠しく思うやり取り。", ""},
	{"partner", []string{"A|{item}どこに置いたっけ", "B|玄関の棚じゃない？", "A|あった！", "B|よかった笑"},
		"自分が{item}を探し、{P}が場所を教えてくれた。", "探し物の話。"},
	{"partner", []string{"B|[call]", "B|声聞けてよかった", "A|また明日ね"},
		"{P}と電話で話した。", ""},
	{"partner", []string{"A|プレゼント何がいい？", "B|えー、なんでもうれしい", "A|それ一番困るやつ笑", "B|じゃあ{item}かな"},
		"プレゼントの希望を聞くと{P}は{item}を挙げた。", "プレゼントの話をした。"},

	// friends
	{"friend", []string{"B|{subject}のノート見せて🙏", "A|いいよ、写真送る", "A|[photo]", "A|[photo]", "B|神"},
		"{P}に頼まれて{subject}のノートの写真を送った。", "ノートを見せた。"},
	{"friend", []string{"B|就活どう？", "A|ぼちぼち", "B|ESしんどいよね", "A|ほんとそれ"},
		"就活の進み具合をぼやき合った。", "就活の話。"},
	{"friend", []string{"A|{day}飲み行こ", "B|いいよ、{shop}？", "A|{place}の{shop}で", "B|{time}な"},
		"{P}と{day}に{place}の{shop}で飲む約束をした。", "{P}と飲みに行く約束をした。"},
	{"friend", []string{"B|彼女とどう？", "A|ふつうに仲良いよ", "B|いいなー", "A|{P}は？", "B|なんもない笑"},
		"{P}と恋愛の近況を話した。", "近況を話した。"},
	{"friend", []string{"B|{game}のイベント今日までだよ", "A|まじ忘れてた", "A|ありがと"},
		"{P}が{game}のイベントの締め切りを教えてくれた。", ""},

	// family
	{"family", []string{"母|今日ご飯いる？", "A|いらない、{shop}で食べてく", "母|了解"},
		"母から夕飯の要否を聞かれ、自分は外で食べると答えた。", "夕飯の連絡。"},
	{"family", []string{"母|{item}送っといたよ", "A|ありがとう", "母|ちゃんと食べてる？", "A|食べてるよ"},
		"母が{item}を送ってくれ、食事のことを気にかけていた。", "母からの仕送りの連絡。"},
	{"family", []string{"父|[photo]", "父|今日釣れた", "母|すごい", "あかり|でかっ", "A|食べたい"},
		"父が釣りの成果を写真で送り、家族が反応した。", "父が写真を共有した。"},
	{"family", []string{"あかり|ねえ{item}借りていい？", "A|いいけど壊すなよ", "あかり|ありがと〜"},
		"妹のあかりが自分の{item}を借りたいと言い、自分は了承した。", "妹との貸し借りの話。"},
	{"family", []string{"母|帰省いつ？", "A|{month}の終わりくらい", "母|決まったら教えてね", "父|駅まで迎えに行く"},
		"母に帰省の時期を聞かれ、{month}の終わりごろと答えた。父が迎えを申し出た。", "帰省の予定の話。"},
	{"family", []string{"母|おばあちゃんに電話してあげて", "A|りょ", "A|今日するわ"},
		"母から祖母に電話するよう頼まれた。", "祖母についての連絡。"},
	{"family", []string{"父|{weather}だから気をつけて", "A|はーい", "母|傘持った？"},
		"{weather}の日に両親が気づかってくれた。", "天気についての気づかい。"},
	{"family", []string{"あかり|{subject}わかんない", "あかり|[photo]", "A|これは公式覚えるだけ", "あかり|むり"},
		"妹のあかりが{subject}の問題について聞いてきた。", "妹の勉強の話。"},
	{"family", []string{"母|病院の予約{day}の{time}ね", "父|わかった"},
		"母が父の病院の予約が{day}の{time}だと伝えた。", "通院の予定の連絡。"},

	// club
	{"club", []string{"大輔|{day}の練習、コート{court}で{time}からです", "C|了解です", "A|参加します", "D|遅れて行きます"},
		"部長の大輔が{day}の練習予定（コート{court}、{time}開始）を連絡し、参加の返事が集まった。", "練習日程の連絡。"},
	{"club", []string{"大輔|{weather}なので今日の練習は中止です", "B|りょうかいです", "C|[sticker]"},
		"{weather}で練習が中止になった。", "練習中止の連絡。"},
	{"club", []string{"B|{day}練習後に飲み行く人ー", "A|行く", "C|いく！", "B|{shop}予約するね"},
		"{P}が練習後の飲み会を呼びかけ、{shop}を予約することになった。", "飲み会の呼びかけ。"},
	{"club", []string{"B|合宿の集金まだの人います？", "C|すみません明日払います", "B|お願いします🙏"},
		"{P}が合宿費の集金を呼びかけた。", "集金の連絡。"},
	{"club", []string{"C|去年の合宿楽しかったなー", "B|BBQよかった", "A|今年もやりたい"},
		"過去の合宿を懐かしむ雑談。", "合宿の思い出話。"},
	{"club", []string{"B|[sys]{Q}がアルバム「{month}練習」を作成しました", "B|写真あげました", "C|ありがとう！"},
		"{P}が練習の写真をアルバムにまとめた。", "写真の共有。"},
	{"club", []string{"B|新歓のビラ配り{day}お願いできる人いますか", "C|いけます", "D|午後ならいけます"},
		"新歓のビラ配りの人手を募集した。", "新歓の準備の連絡。"},
	{"club", []string{"大輔|ガット張り替えまとめて出す人いる？", "C|お願いします", "A|自分もお願いします", "大輔|{day}に回収します"},
		"部長がラケットのガット張り替えをまとめて受け付けた。", "備品の連絡。"},
	{"club", []string{"B|大会のエントリー{day}までです", "C|ダブルス出ます", "A|自分も"},
		"大会のエントリー締め切りが{day}と告知された。", "大会エントリーの連絡。"},

	// seminar
	{"seminar", []string{"B|{subject}のレポート締切いつだっけ", "C|{day}の23:59", "B|やば", "A|まだ手つけてない"},
		"{subject}のレポート締め切りが{day}だと確認し合った。", "レポートの締め切りの確認。"},
	{"seminar", []string{"B|来週の発表、{Q}からでいい？", "C|いいよ", "A|その次やります"},
		"ゼミ発表の順番を決めた。", "発表順の相談。"},
	{"seminar", []string{"C|教授今日休講だって", "B|まじか", "A|来ちゃった笑"},
		"ゼミが休講になった連絡。", ""},
	{"seminar", []string{"B|{subject}の過去問持ってる人いる？", "C|去年のならある", "C|[file:過去問.pdf]", "B|神"},
		"{subject}の過去問をメンバーが共有した。", "過去問の共有。"},
	{"seminar", []string{"C|卒論のテーマ決まった？", "B|まだ", "A|なんとなく", "C|{month}に中間発表あるらしい"},
		"卒論のテーマ決めと{month}の中間発表について話した。", "卒論の話。"},
	{"seminar", []string{"B|ゼミ合宿の議事録です", "B|[long:minutes]", "C|ありがとうございます"},
		"ゼミ合宿の長い議事録が共有された。", "議事録の共有。"},

	// part-time job
	{"baito", []string{"店長|来月のシフト希望、{day}までに出してください", "B|了解です", "C|はい"},
		"店長が来月のシフト希望を{day}までに出すよう連絡した。", "シフト希望の締め切りの連絡。"},
	{"baito", []string{"B|{day}のシフト誰か代われる人いませんか🙏", "C|私いけます", "B|ありがとうございます！"},
		"{P}が{day}のシフト交代を募集し、{Q}が引き受けた。", "シフト交代の募集。"},
	{"baito", []string{"C|牛乳の在庫少ないです", "店長|発注しときます", "C|お願いします"},
		"在庫が少ないことを店長に伝えた。", "在庫の連絡。"},
	{"baito", []string{"B|電車遅延で10分遅れます、すみません", "店長|了解、気をつけて"},
		"{P}が電車遅延で遅刻すると連絡した。", "遅刻の連絡。"},
	{"baito", []string{"店長|来週から{drink}の新しいカップに変わります", "B|はーい", "A|了解です"},
		"店長が{drink}のカップ変更を告知した。", "店の備品の変更の連絡。"},
	{"baito", []string{"B|今日忙しすぎた", "C|お客さんずっと並んでましたね", "A|おつかれさまでした"},
		"忙しかったシフトをねぎらい合った。", "シフト後のねぎらい。"},
	{"baito", []string{"店長|{month}の給与明細、共有ノートに置きました", "B|ありがとうございます"},
		"店長が{month}の給与明細の置き場所を連絡した。", "給与明細の連絡。"},

	// work
	{"work", []string{"佐藤課長|明日の定例{time}からに変更です", "C|承知しました", "A|承知です"},
		"佐藤課長が翌日の定例会議を{time}開始に変更した。", "会議時間の変更連絡。"},
	{"work", []string{"高橋|{task}共有します {url}", "A|ありがとうございます、確認します"},
		"高橋が{task}を共有した。", "資料の共有。"},
	{"work", []string{"中村|すみません、少し遅れます", "佐藤課長|了解"},
		"中村が遅刻の連絡をした。", ""},
	{"work", []string{"中村|お昼{food}行きません？", "A|行きます", "高橋|自分も"},
		"中村がお昼に{food}を食べに行こうと誘った。", "ランチの誘い。"},
	{"work", []string{"佐藤課長|{client}さんの件、見積もり出しました", "高橋|ありがとうございます", "佐藤課長|先方の返事待ちです"},
		"{client}向けの見積もりを提出し、返事待ちになった。", "取引先との進捗の共有。"},
	{"work", []string{"高橋|定例の議事録です", "高橋|[long:minutes]", "A|ありがとうございます"},
		"定例会議の長い議事録が共有された。", "議事録の共有。"},
	{"work", []string{"A|{task}、今日中に出します", "佐藤課長|よろしく", "C|[sticker]"},
		"自分が{task}を当日中に出すと伝えた。", "作業の進捗連絡。"},

	// trip group
	{"trip", []string{"B|新幹線何時のにする？", "C|朝早いのがいい", "A|8時台とか", "D|起きれるかな笑"},
		"旅行の新幹線の時間を相談した。", "移動の相談。"},
	{"trip", []string{"C|{spot}行きたい", "B|いいね", "A|{spot}は2日目かな"},
		"旅行で{spot}に行きたいという案が出た。", "行き先の相談。"},
	{"trip", []string{"B|持ち物リスト作った", "B|[long:itinerary]", "C|助かる"},
		"旅行の持ち物や行程の長いメモが共有された。", "旅行の準備メモの共有。"},
	{"trip", []string{"C|[photo]", "C|{spot}！", "B|最高", "A|また行きたいね"},
		"旅行中の{spot}の写真を共有した。", "旅行の写真の共有。"},
	{"trip", []string{"D|次どこ行く？", "B|北海道とか", "A|冬の北海道いいな"},
		"次の旅行先を話した。", "次の旅行の話。"},
}

package synth

// sourceSpec describes one conversation of the invented user.
type sourceSpec struct {
	key, name, kind, label string
	title                  string // the chat's name in a .txt export header
	members                []string
	weight                 int
	from, to               string // active period; empty means the whole span
}

// cast lists the conversations. All people are invented. Weights split the
// message budget; they are shares, the same at every scale.
var cast = []sourceSpec{
	{key: "haruka", title: "遥", name: "chat_haruka.json", kind: "partner", label: "遥との個別トーク", members: []string{"遥"}, weight: 3300},
	{key: "kenta", title: "健太", name: "chat_kenta.json", kind: "friend", label: "友人の健太との個別トーク", members: []string{"健太"}, weight: 1900},
	{key: "sakura", title: "さくら", name: "chat_sakura.json", kind: "friend", label: "友人のさくらとの個別トーク", members: []string{"さくら"}, weight: 1500},
	{key: "misaki", title: "美咲", name: "chat_misaki.json", kind: "friend", label: "友人の美咲との個別トーク", members: []string{"美咲"}, weight: 1100},
	{key: "yuki", title: "ユウキ", name: "chat_yuki.json", kind: "friend", label: "友人のユウキとの個別トーク", members: []string{"ユウキ"}, weight: 900},
	{key: "family", title: "家族", name: "family.json", kind: "family", label: "家族のグループトーク（母・父・妹のあかり）", members: []string{"母", "父", "あかり"}, weight: 2500},
	{key: "club", title: "テニサー🎾", name: "club_tennis.json", kind: "club", label: "テニスサークルのグループトーク", members: []string{"大輔", "健太", "さくら", "里奈", "翔太", "ユウキ"}, weight: 2900},
	{key: "seminar", title: "山本ゼミ", name: "seminar_group.json", kind: "seminar", label: "ゼミのグループトーク", members: []string{"拓海", "里奈", "翔太", "真央"}, weight: 1600, to: "2024-03-31"},
	{key: "baito", title: "カフェ ひだまり バイト", name: "baito_cafe.json", kind: "baito", label: "カフェのアルバイトのグループトーク", members: []string{"店長", "千尋", "蓮", "葵"}, weight: 2000, to: "2024-03-15"},
	{key: "work", title: "会員アプリPJ", name: "work_team.json", kind: "work", label: "職場のプロジェクトチームのグループトーク", members: []string{"佐藤課長", "高橋", "中村"}, weight: 1300, from: "2024-04-01"},
	{key: "trip", title: "金沢旅行✈️", name: "trip_kanazawa.json", kind: "trip", label: "金沢旅行のグループトーク", members: []string{"健太", "ユウキ", "さくら"}, weight: 1000, from: "2023-05-01"},
}

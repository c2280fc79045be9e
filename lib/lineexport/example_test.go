package lineexport_test

import (
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/lineexport"
)

func ExampleReadJSON() {
	export := `{
"2024/01/14": [
  {"time": "9:05", "sender": "Aoi", "text": "Lunch tomorrow?"},
  {"time": "25:99", "sender": "Ren", "type": "sticker"},
  {"text": "Aoi unsent a message"}
]}`
	res, err := lineexport.ReadJSON("chat_aoi.json", strings.NewReader(export))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range res.Messages {
		fmt.Printf("%d %s %q %s %s %q\n", m.SourceOrder, m.OccurredAtString(), m.Time, m.Sender, m.Type, m.Text)
	}
	for _, w := range res.Warnings {
		fmt.Println(w)
	}
	// Output:
	// 0 2024-01-14T09:05:00 "09:05:00" Aoi text "Lunch tomorrow?"
	// 1 2024-01-14T00:00:01 "" Ren sticker ""
	// 2 2024-01-14T00:00:02 "" SYSTEM text "Aoi unsent a message"
	// chat_aoi.json:4: time "25:99" is not H:MM, HH:MM or HH:MM:SS; kept as unknown
}

func ExampleInputError() {
	_, err := lineexport.ReadJSON("chat_aoi.json", strings.NewReader("{\n\"2024-01-14\": [{\"time\": 930}]\n}"))
	fmt.Println(err)
	// Output:
	// chat_aoi.json:2: expected field "time" to be a string or null, got the number 930, byte 26
}

func ExampleReadText() {
	export := "[LINE] Chat history with Ren\n" +
		"Saved on: 2024/01/20 21:03\n" +
		"\n" +
		"2024/01/14(Sun)\n" +
		"9:05 PM\tRen\t\"Two lines:\n" +
		"see you at 7\"\n" +
		"9:06 PM\tAoi\t[Sticker]\n" +
		"9:07 PM\tRen unsent a message\n"
	res, err := lineexport.ReadText("chat_ren.txt", strings.NewReader(export))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range res.Messages {
		fmt.Printf("%s %s %s %q\n", m.OccurredAtString(), m.Sender, m.Type, m.Text)
	}
	// Output:
	// 2024-01-14T21:05:00 Ren text "Two lines:\nsee you at 7"
	// 2024-01-14T21:06:00 Aoi sticker "[Sticker]"
	// 2024-01-14T21:07:00 SYSTEM unsend "Ren unsent a message"
}

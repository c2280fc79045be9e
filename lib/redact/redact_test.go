package redact_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/redact"
)

func TestRedact(t *testing.T) {
	all, err := redact.New([]string{"all"}, []string{"山田花子", "花子", "Taro"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, in, want string
		counts         redact.Report
	}{
		{"empty", "", "", redact.Report{}},
		{"nothing to redact", "明日18時に駅で", "明日18時に駅で", redact.Report{}},
		{"mobile hyphenated", "電話は090-1234-5678です", "電話は[PHONE]です", redact.Report{"phone": 1}},
		{"mobile plain", "09012345678に", "[PHONE]に", redact.Report{"phone": 1}},
		{"landline tokyo", "03-1234-5678", "[PHONE]", redact.Report{"phone": 1}},
		{"landline parens", "(03)1234-5678", "[PHONE]", redact.Report{"phone": 1}},
		{"toll free", "0120-123-456まで", "[PHONE]まで", redact.Report{"phone": 1}},
		{"full-width digits", "０９０－１２３４－５６７８", "[PHONE]", redact.Report{"phone": 1}},
		{"international", "+81 90-1234-5678", "[PHONE]", redact.Report{"phone": 1}},
		{"time and date are not phones", "2024-01-14 18:30 集合", "2024-01-14 18:30 集合", redact.Report{}},
		{"short number is not a phone", "部屋は0123", "部屋は0123", redact.Report{}},
		{"email", "連絡はtaro.y+x@example.co.jpへ", "連絡は[EMAIL]へ", redact.Report{"email": 1}},
		{"url", "見て https://example.com/a?b=1 すごい", "見て [URL] すごい", redact.Report{"url": 1}},
		{"url stops at japanese", "https://ex.jp/x見て", "[URL]見て", redact.Report{"url": 1}},
		{"url digits not a phone", "https://ex.jp/09012345678", "[URL]", redact.Report{"url": 1}},
		{"names longest first", "山田花子と花子とTaro", "[NAME]と[NAME]と[NAME]", redact.Report{"name": 3}},
		{"mixed", "花子: 090-1234-5678 / a@b.jp", "[NAME]: [PHONE] / [EMAIL]", redact.Report{"name": 1, "phone": 1, "email": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, rep := all.Redact(c.in)
			if got != c.want {
				t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
			}
			if fmt.Sprint(rep) != fmt.Sprint(c.counts) {
				t.Errorf("report = %v, want %v", rep, c.counts)
			}
		})
	}
}

func TestOnlySelectedKinds(t *testing.T) {
	r, err := redact.New([]string{"phone"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := r.Redact("a@b.jp 090-1234-5678 https://x.jp")
	if want := "a@b.jp [PHONE] https://x.jp"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if d := r.Describe(); d != "phone" {
		t.Errorf("Describe = %q", d)
	}
}

func TestNew(t *testing.T) {
	if _, err := redact.New([]string{"ssn"}, nil); err == nil {
		t.Error("unknown kind accepted")
	}
	if _, err := redact.New([]string{"name"}, nil); err == nil {
		t.Error("name kind without names accepted")
	}
	all, err := redact.New([]string{"all"}, nil)
	if err != nil || all.Describe() != "email,url,phone" {
		t.Errorf("all without names: %v %q", err, all.Describe())
	}
	var none *redact.Redactor
	if got, rep := none.Redact("090-1234-5678"); got != "090-1234-5678" || rep.Total() != 0 {
		t.Errorf("nil redactor changed text: %q %v", got, rep)
	}
	if none.Describe() != "none" {
		t.Errorf("nil Describe = %q", none.Describe())
	}
}

func TestDescribeHidesNames(t *testing.T) {
	r, _ := redact.New(nil, []string{"山田花子"})
	d := r.Describe()
	if strings.Contains(d, "山田") || !strings.HasPrefix(d, "name(1:") {
		t.Errorf("Describe = %q", d)
	}
	r2, _ := redact.New(nil, []string{"山田太郎"})
	if r2.Describe() == d {
		t.Error("different name lists describe the same")
	}
}

func ExampleRedactor_Redact() {
	r, _ := redact.New([]string{"all"}, []string{"花子"})
	text, rep := r.Redact("花子の番号は090-1234-5678、詳細は https://example.jp/x")
	fmt.Println(text)
	fmt.Println(rep.Total(), r.Describe() != "none")
	// Output:
	// [NAME]の番号は[PHONE]、詳細は [URL]
	// 3 true
}

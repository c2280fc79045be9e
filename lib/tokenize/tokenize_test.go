package tokenize_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/tokenize"
)

func TestNew(t *testing.T) {
	for _, name := range tokenize.Names() {
		t.Run(name, func(t *testing.T) {
			tok, err := tokenize.New(name)
			if err != nil {
				t.Fatal(err)
			}
			if tok.Name() != name {
				t.Errorf("New(%q).Name() = %q", name, tok.Name())
			}
			if got := tok.Tokens(""); len(got) != 0 {
				t.Errorf("Tokens(\"\") = %q, want none", got)
			}
		})
	}
	t.Run("empty name is the default", func(t *testing.T) {
		tok, err := tokenize.New("")
		if err != nil {
			t.Fatal(err)
		}
		if tok.Name() != tokenize.Default {
			t.Errorf("New(\"\").Name() = %q, want %q", tok.Name(), tokenize.Default)
		}
	})
	t.Run("unknown name lists the known ones", func(t *testing.T) {
		_, err := tokenize.New("mecab")
		if err == nil {
			t.Fatal("New(\"mecab\") succeeded")
		}
		for _, name := range tokenize.Names() {
			if !strings.Contains(err.Error(), name) {
				t.Errorf("error %q does not mention %q", err, name)
			}
		}
	})
}

// TestFieldName: a tokenizer without fields names none; the everyday
// analyzer names its reading field and not its base one.
func TestFieldName(t *testing.T) {
	for _, tc := range []struct{ tokenizer, term, want string }{
		{"paper-regex", "r:カギ", ""},
		{"everyday", "r:カギ", "reading bigram"},
		{"everyday", "鍵", ""},
	} {
		tok, err := tokenize.New(tc.tokenizer)
		if err != nil {
			t.Fatal(err)
		}
		if got := tokenize.FieldName(tok, tc.term); got != tc.want {
			t.Errorf("%s: FieldName(%q) = %q, want %q", tc.tokenizer, tc.term, got, tc.want)
		}
	}
}

func TestNames(t *testing.T) {
	want := []string{"paper-regex", "kagome", "char-bigram", "everyday"}
	if got := tokenize.Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
}

func ExampleNew() {
	tok, err := tokenize.New(tokenize.Default)
	if err != nil {
		panic(err)
	}
	fmt.Println(tok.Name(), tok.Tokens("USBとPVの件"))
	// Output: paper-regex [usb pv]
}

func TestOr(t *testing.T) {
	for _, c := range []struct{ name, def, want string }{
		{"", tokenize.Default, tokenize.Default},
		{"", "char-bigram", "char-bigram"}, // a package with a default of its own
		{"kagome", tokenize.Default, "kagome"},
		{"char-bigram", "", "char-bigram"},
		{"", "", ""},
	} {
		if got := tokenize.Or(c.name, c.def); got != c.want {
			t.Errorf("Or(%q, %q) = %q, want %q", c.name, c.def, got, c.want)
		}
	}
}

func TestReproduceNames(t *testing.T) {
	want := []string{"paper-regex", "kagome", "char-bigram"}
	if got := tokenize.ReproduceNames(); !slices.Equal(got, want) {
		t.Errorf("ReproduceNames() = %q, want %q", got, want)
	}
}

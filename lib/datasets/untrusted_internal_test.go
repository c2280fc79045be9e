package datasets

import (
	"encoding/json"
	"testing"
)

// TestIndexValuesOffsets: every value's pointer maps to the offset of its
// first byte in the whole file, past the white space, colons and commas
// before it; a pointer not indexed takes its nearest indexed ancestor's line.
func TestIndexValuesOffsets(t *testing.T) {
	prefix := "[\n\n"
	doc := `{ "a" :  [ 1 ,` + "\n" + ` {"b":	"x"} ] , "c~/d": null }`
	data := []byte(prefix + doc + "\n]")
	base := int64(len(prefix))
	ix, err := indexValues(data, base, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pointer string
		first   byte
		line    int
	}{
		{"", '{', 3},
		{"/a", '[', 3},
		{"/a/0", '1', 3},
		{"/a/1", '{', 4},
		{"/a/1/b", '"', 4},
		{"/c~0~1d", 'n', 4},
	} {
		off, ok := ix.at[c.pointer]
		if !ok || data[off] != c.first || lineAt(data, off) != c.line {
			t.Errorf("%q: offset %d (%v), want the byte %q on line %d", c.pointer, off, ok, c.first, c.line)
		}
	}
	if got := ix.line("a", 1, "b"); got != 4 {
		t.Errorf(`line("a", 1, "b") = %d, want 4`, got)
	}
	if got := ix.line("a", 1, "nope", 3); got != 4 {
		t.Errorf("an unindexed pointer: line %d, want 4 (its ancestor /a/1)", got)
	}
	if got := ix.line("nope"); got != 3 {
		t.Errorf("an unindexed key of the root: line %d, want 3 (the document's first line)", got)
	}
}

// TestTypeErrorLine: a type error is placed at its own offset, another
// error at the value's first byte.
func TestTypeErrorLine(t *testing.T) {
	data := []byte("[\n{\"category\":\n\"four\"}\n]")
	var v struct{ Category int }
	err := json.Unmarshal(data[2:len(data)-2], &v)
	if err == nil {
		t.Fatal("no type error")
	}
	if got := typeErrorLine(data, 2, err); got != 3 {
		t.Errorf("type error at line %d, want 3", got)
	}
	if got := typeErrorLine(data, 2, json.Unmarshal([]byte("{"), &v)); got != 2 {
		t.Errorf("syntax error at line %d, want 2 (the value's start)", got)
	}
}

func TestFirstBytes(t *testing.T) {
	for _, c := range []struct{ in, want string }{{"ab", "ab"}, {"abc", "abc"}, {"abcd", "abc"}, {"", ""}} {
		if got := firstBytes([]byte(c.in), 3); got != c.want {
			t.Errorf("firstBytes(%q, 3) = %q, want %q", c.in, got, c.want)
		}
	}
}

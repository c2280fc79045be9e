package lineexport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
)

// decoderRead reads data through the decoder path only.
func decoderRead(source string, data []byte) (*Result, error) {
	base := int64(0)
	if bytes.HasPrefix(data, utf8BOM) {
		base = int64(len(utf8BOM))
	}
	dec := json.NewDecoder(bytes.NewReader(data[base:]))
	dec.UseNumber()
	jr := &jsonReader{source: source, data: data, base: base, dec: dec, lines: newLineIndex(data)}
	return jr.read()
}

// TestValidPathMatchesDecoder checks that a valid export read in place
// (readValid) gives what the decoder path gives, warnings and their lines
// included, and that anything readValid gives up on still parses the same.
func TestValidPathMatchesDecoder(t *testing.T) {
	inputs := map[string][]byte{
		"spaced":    []byte("\uFEFF{\n \"2024-01-14\" : [ {\"time\":\"9:05\" , \"sender\" : \"A\",\"text\":\"a\\\"b\\u3042\"} ,\n{ \"x\": [1, {\"y\": \"}\"}], \"text\": null}\n ] ,\r\n\"2024/01/15\":[],\"2024-01-14\":[{}]}\n"),
		"warnings":  []byte(`{"2024-01-14": [{"time": "25:99"}, {"time": "9:5"}, {"time": ""}, {"time": null, "type": "photo"}]}`),
		"empty":     []byte(`{}`),
		"bad key":   []byte(`{"2024-02-30": []}`),
		"not array": []byte(`{"2024-01-14": {}}`),
		"not obj":   []byte(`{"2024-01-14": [1]}`),
		"bad type":  []byte(`{"2024-01-14": [{"text": 3}]}`),
		"trailing":  []byte(`{"2024-01-14": []} x`),
	}
	paths, err := filepath.Glob(conformance.Path("sources", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(p)] = data
	}
	inPlace := map[string]bool{"spaced": true, "warnings": true, "empty": true} // and the conformance sources
	for _, p := range paths {
		inPlace[filepath.Base(p)] = true
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			if inPlace[name] {
				base := int64(0)
				if bytes.HasPrefix(data, utf8BOM) {
					base = int64(len(utf8BOM))
				}
				jr := &jsonReader{source: "s.json", data: data, base: base, lines: newLineIndex(data)}
				if _, ok := jr.readValid(); !ok {
					t.Error("readValid gave up on a well-formed export; it must read it in place")
				}
			}
			got, gotErr := parseJSON("s.json", data)
			want, wantErr := decoderRead("s.json", data)
			if !reflect.DeepEqual(got, want) || fmtErr(gotErr) != fmtErr(wantErr) {
				t.Errorf("parseJSON = %+v, %v\ndecoder   = %+v, %v", got, gotErr, want, wantErr)
			}
		})
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

package mcpserver

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecodeArgs: a tool's arguments come from whatever the client sends.
// decodeArgs never panics; it either refuses them with errBadArgument, or
// returns every required argument, every integer inside its schema's range,
// and nothing the schema does not name.
func FuzzDecodeArgs(f *testing.F) {
	for _, seed := range []string{
		`{"question": "文化祭 ポスター", "k": 3}`,
		`{"question": "x", "k": "5", "since": "2024-10-15T20:00:00+09:00", "source": "a.txt, 家族"}`,
		`{"question": 12, "k": 1e2}`,
		`{"question": "x", "k": 5.5}`,
		`{"question": null}`,
		`{"chunk_id": "876b10e9bb995cdf", "before": 0, "after": 50}`,
		`{"message_id": "m", "before": -1}`,
		`{"other": 1}`,
		`[]`, `null`, ``, `"x"`, `{"k": 9223372036854775808}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, params := range [][]param{searchParams, messagesParams, nil} {
			a, err := decodeArgs(json.RawMessage(raw), params)
			if err != nil {
				if !errors.Is(err, errBadArgument) {
					t.Fatalf("error %v is not errBadArgument", err)
				}
				continue
			}
			known := map[string]bool{}
			for _, p := range params {
				known[p.name] = true
				if p.required && !p.integer {
					if _, ok := a.strs[p.name]; !ok {
						t.Fatalf("required %s missing from accepted arguments %q", p.name, raw)
					}
				}
				if v, ok := a.ints[p.name]; ok && (v < p.min || v > p.max) {
					t.Fatalf("%s = %d outside [%d, %d] accepted from %q", p.name, v, p.min, p.max, raw)
				}
			}
			for name := range a.strs {
				if !known[name] {
					t.Fatalf("argument %s not in the schema accepted from %q", name, raw)
				}
			}
			for name := range a.ints {
				if !known[name] {
					t.Fatalf("argument %s not in the schema accepted from %q", name, raw)
				}
			}
		}
	})
}

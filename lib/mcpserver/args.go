package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// param is one argument of a tool: the one home of its input schema and of
// how its value is read, so the schema a client fills and the checks the
// server makes cannot drift apart.
//
// A string argument takes a JSON string; a JSON number is taken as its
// literal text (some clients send "2024" as 2024). An integer argument takes
// a JSON number with no fraction, or a string holding one in decimal (some
// clients send every value as a string), between min and max inclusive.
// null is the same as omitting the argument.
type param struct {
	name     string
	desc     string // says what the argument is; never a number the schema states
	integer  bool
	min, max int // integer only
	def      int // integer only: the value when omitted
	required bool
}

// inputSchema is the JSON Schema of params: an object of plain "string" and
// "integer" properties (integers with minimum, maximum and default), the
// required ones listed, no others allowed.
func inputSchema(params []param) map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, p := range params {
		prop := map[string]any{"type": "string", "description": p.desc}
		if p.integer {
			prop = map[string]any{"type": "integer", "minimum": p.min, "maximum": p.max, "default": p.def, "description": p.desc}
		}
		props[p.name] = prop
		if p.required {
			required = append(required, p.name)
		}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// args is what decodeArgs read: string arguments by name, integer arguments
// by name (absent when omitted).
type args struct {
	strs map[string]string
	ints map[string]int
}

func (a args) str(name string) string { return a.strs[name] }

// int returns the integer argument name, or def when it was omitted.
func (a args) int(name string, def int) int {
	if v, ok := a.ints[name]; ok {
		return v
	}
	return def
}

func (a args) has(name string) bool { _, ok := a.ints[name]; return ok }

// decodeArgs reads raw, a tool call's arguments, by params. The error, an
// errBadArgument, names the argument and says what it takes, in words a
// model can act on; it quotes at most 40 characters of a value.
func decodeArgs(raw json.RawMessage, params []param) (args, error) {
	a := args{strs: map[string]string{}, ints: map[string]int{}}
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.name
	}
	var obj map[string]json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		if t[0] != '{' || json.Unmarshal(t, &obj) != nil {
			return a, fmt.Errorf("%w: the arguments must be a JSON object with the properties %s", errBadArgument, listNames(names))
		}
	}
	var unknown []string
	for name := range obj {
		if !slices.Contains(names, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		for i, u := range unknown {
			unknown[i] = cut(u, 40)
		}
		if len(names) == 0 {
			return a, fmt.Errorf("%w: this tool takes no arguments, got %s", errBadArgument, listNames(unknown))
		}
		return a, fmt.Errorf("%w: unknown argument %s; the arguments are %s", errBadArgument, listNames(unknown), listNames(names))
	}
	for _, p := range params {
		v, ok := obj[p.name]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			if p.required {
				return a, fmt.Errorf("%w: %s is required: %s", errBadArgument, p.name, p.desc)
			}
			continue
		}
		if p.integer {
			n, err := readInt(p, v)
			if err != nil {
				return a, err
			}
			a.ints[p.name] = n
			continue
		}
		s, err := readString(p, v)
		if err != nil {
			return a, err
		}
		a.strs[p.name] = s
	}
	return a, nil
}

func readString(p param, v json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, nil
	}
	var n json.Number
	if dec := json.NewDecoder(bytes.NewReader(v)); dec.Decode(&n) == nil && !dec.More() {
		return n.String(), nil
	}
	return "", fmt.Errorf("%w: %s must be a string, got %s", errBadArgument, p.name, jsonKind(v))
}

func readInt(p param, v json.RawMessage) (int, error) {
	want := fmt.Sprintf("%s must be a whole number from %d to %d", p.name, p.min, p.max)
	text := strings.TrimSpace(string(v))
	var s string
	if json.Unmarshal(v, &s) == nil {
		text = strings.TrimSpace(s)
	} else if kind := jsonKind(v); kind != "a number" {
		return 0, fmt.Errorf("%w: %s, got %s", errBadArgument, want, kind)
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%w: %s, got %q", errBadArgument, want, cut(text, 40))
	}
	if f != math.Trunc(f) || f < float64(p.min) || f > float64(p.max) {
		return 0, fmt.Errorf("%w: %s, got %s", errBadArgument, want, cut(text, 40))
	}
	return int(f), nil
}

// jsonKind names the kind of JSON value v holds, for an error message.
func jsonKind(v json.RawMessage) string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}

func listNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

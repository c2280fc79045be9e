package store

// scanSummaryLine reads the common summaries JSONL line — an object of
// exactly the two fields "chunk_id" and "summary", in either order, each a
// string of valid UTF-8 without escapes or control characters, with JSON
// white space anywhere between tokens — in one pass. ok is false for any
// other line, which then goes to encoding/json (escapes, other or repeated
// fields, names in other letter cases, null, errors): the scanner never
// accepts what that path would refuse or read differently.
func scanSummaryLine(data []byte) (chunkID, summary string, ok bool) {
	s := lineScanner{b: data}
	var haveID, haveSummary bool
	ok = s.twoFields(func(name string) bool {
		var dst *string
		switch {
		case name == "chunk_id" && !haveID:
			dst, haveID = &chunkID, true
		case name == "summary" && !haveSummary:
			dst, haveSummary = &summary, true
		default:
			return false
		}
		value, ok := s.str()
		*dst = string([]byte(value))
		return ok
	})
	if !ok {
		return "", "", false
	}
	return chunkID, summary, true
}

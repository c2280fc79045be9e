package store

// scanSummaryLine reads the common summaries JSONL line — an object of
// exactly the two fields "chunk_id" and "summary", in either order, each a
// string of valid UTF-8 without escapes or control characters, with JSON
// white space anywhere between tokens — in one pass. ok is false for any
// other line, which then goes to encoding/json (escapes, other or repeated
// fields, names in other letter cases, null, errors): the scanner never
// accepts what that path would refuse or read differently.
func scanSummaryLine(data []byte) (chunkID, summary string, ok bool) {
	s := vectorScanner{b: data}
	if !s.byte('{') {
		return "", "", false
	}
	var haveID, haveSummary bool
	for field := 0; field < 2; field++ {
		if field == 1 && !s.byte(',') {
			return "", "", false
		}
		name, ok := s.str()
		if !ok || !s.byte(':') {
			return "", "", false
		}
		value, ok := s.str()
		if !ok {
			return "", "", false
		}
		switch {
		case name == "chunk_id" && !haveID:
			chunkID, haveID = string([]byte(value)), true
		case name == "summary" && !haveSummary:
			summary, haveSummary = string([]byte(value)), true
		default:
			return "", "", false
		}
	}
	if !s.byte('}') {
		return "", "", false
	}
	s.ws()
	return chunkID, summary, s.i == len(s.b)
}

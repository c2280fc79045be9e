package answer

import (
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/text/width"
)

// citationPattern matches one bracketed group of numbers: [1], [1, 2],
// ［２］, [1、3].
var citationPattern = regexp.MustCompile(`[\[［]\s*([0-9０-９]+(?:\s*[,，、]\s*[0-9０-９]+)*)\s*[\]］]`)

// Citations is what ParseCitations found in an answer.
type Citations struct {
	Valid      []int // numbers in 1…n, in order of first appearance, each once
	Invalid    []int // numbers outside 1…n, in order of first appearance, each once
	Duplicates []int // numbers cited more than once (valid or not), in order of their second appearance
}

// ParseCitations reads the bracketed chunk numbers of text, given n
// numbered chunks.
func ParseCitations(text string, n int) Citations {
	var c Citations
	seen := map[int]int{}
	for _, m := range citationPattern.FindAllStringSubmatch(text, -1) {
		for _, f := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == '，' || r == '、' || r == ' ' }) {
			k, err := strconv.Atoi(width.Narrow.String(strings.TrimSpace(f)))
			if err != nil {
				continue
			}
			seen[k]++
			switch {
			case seen[k] == 2:
				c.Duplicates = append(c.Duplicates, k)
				continue
			case seen[k] > 2:
				continue
			}
			if k >= 1 && k <= n {
				c.Valid = append(c.Valid, k)
			} else {
				c.Invalid = append(c.Invalid, k)
			}
		}
	}
	return c
}

// StripCitations removes every bracketed citation from text and trims it.
func StripCitations(text string) string {
	return strings.TrimSpace(citationPattern.ReplaceAllString(text, ""))
}

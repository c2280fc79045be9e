package ranking

import (
	"fmt"
	"strings"
)

// Explanation is one node of a score breakdown, after bleve's: Value is the
// node's number, Message says what it is, Children are the parts it is made
// of. Producers keep the root's Value equal to the score they report.
type Explanation struct {
	Value    float64       `json:"value"`
	Message  string        `json:"message"`
	Children []Explanation `json:"children,omitempty"`
}

// String renders the tree, one node per line as "%.6g  message", children
// indented by two spaces per level.
func (e Explanation) String() string {
	var sb strings.Builder
	e.write(&sb, 0)
	return sb.String()
}

func (e Explanation) write(sb *strings.Builder, depth int) {
	fmt.Fprintf(sb, "%s%.6g  %s\n", strings.Repeat("  ", depth), e.Value, e.Message)
	for _, c := range e.Children {
		c.write(sb, depth+1)
	}
}

// Package token is the one type every tokenizer of lib/tokenize returns
// when asked where its terms were read from: a term with the byte range of
// the original text, as bleve's analysis.Token carries Term, Start and End.
// It is a leaf package so that each tokenizer subpackage and lib/tokenize
// itself can name the type.
package token

// Token is one index term and the bytes [Start, End) of the original text
// it was read from. A term derived from several characters (a normalised
// width variant, a base form, a reading) covers every byte they came from;
// End > Start unless the text is empty.
type Token struct {
	Term       string
	Start, End int
}

// Terms returns the terms of toks in order; nil when toks is empty, as
// every Tokenizer's Tokens returns nil for a text without terms.
func Terms(toks []Token) []string {
	if len(toks) == 0 {
		return nil
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Term
	}
	return out
}

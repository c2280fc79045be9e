// Package redact replaces personal identifiers in chat text with placeholders
// before the text leaves the machine: e-mail addresses, URLs, phone numbers
// (Japanese domestic and international formats) and names from a user list.
//
// Rules apply in this order, each to the output of the previous one, so a
// URL's digits are never read as a phone number and a name inside an e-mail
// address goes with the address:
//
//  1. email  → [EMAIL]   local@domain.tld, ASCII only
//  2. url    → [URL]     http(s)://…, www.…, up to the first space or full-width character
//  3. phone  → [PHONE]   0X0-XXXX-XXXX mobiles, 0X-XXXX-XXXX / 0XX-XXX-XXXX landlines,
//     0120/0800 toll-free, +81 forms, 10–11 digit runs starting with 0, separators
//     "-", "‐", "－", "ー", " ", "(", ")"; full-width digits count as digits
//  4. name   → [NAME]    every occurrence of each listed name, longest first
//
// Redaction is not anonymisation: nicknames, addresses and context still
// identify people. Report records what was replaced so provenance can say so.
package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Placeholders inserted for each kind.
const (
	EmailPlaceholder = "[EMAIL]"
	URLPlaceholder   = "[URL]"
	PhonePlaceholder = "[PHONE]"
	NamePlaceholder  = "[NAME]"
)

// Kinds of identifier, in application order.
const (
	Email = "email"
	URL   = "url"
	Phone = "phone"
	Name  = "name"
)

// Kinds lists every kind in application order.
var Kinds = []string{Email, URL, Phone, Name}

var (
	emailRE = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}`)
	urlRE   = regexp.MustCompile(`(?i)(?:https?://|www\.)[!-~]+`)
	// digit: ASCII or full-width; sep: hyphens, dashes, long vowel mark, space, parentheses.
	phoneRE = regexp.MustCompile(`(?:(?:\+|＋)[8８][1１][\-‐－ー ()（）]*[0-9０-９]|[(（]?[0０][0-9０-９])(?:[\-‐－ー ()（）]?[0-9０-９]){8,10}`)
)

// Redactor applies a fixed set of rules. The zero value redacts nothing.
type Redactor struct {
	kinds map[string]bool
	names []string // longest first
}

// New returns a redactor for the given kinds (any of Kinds; "all" = email,
// url and phone, plus name when names are given) and names. Names are matched
// verbatim; empty names are ignored; giving names enables the name kind.
// Asking for the name kind with no names is an error, as is an unknown kind.
func New(kinds []string, names []string) (*Redactor, error) {
	r := &Redactor{kinds: map[string]bool{}}
	for _, k := range kinds {
		k = strings.TrimSpace(k)
		switch k {
		case "":
		case "all":
			for _, kk := range []string{Email, URL, Phone} {
				r.kinds[kk] = true
			}
		case Email, URL, Phone, Name:
			r.kinds[k] = true
		default:
			return nil, fmt.Errorf("redact: unknown kind %q (want %s or all)", k, strings.Join(Kinds, ", "))
		}
	}
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			r.names = append(r.names, n)
		}
	}
	sort.SliceStable(r.names, func(i, j int) bool { return len(r.names[i]) > len(r.names[j]) })
	if r.kinds[Name] && len(r.names) == 0 {
		return nil, fmt.Errorf("redact: kind %q needs a list of names", Name)
	}
	if len(r.names) > 0 {
		r.kinds[Name] = true
	}
	return r, nil
}

// Report counts replacements per kind.
type Report map[string]int

// Total is the number of replacements.
func (r Report) Total() int {
	n := 0
	for _, c := range r {
		n += c
	}
	return n
}

// Enabled reports whether r redacts anything.
func (r *Redactor) Enabled() bool { return r != nil && len(r.kinds) > 0 }

// Redact returns text with every enabled kind replaced by its placeholder.
func (r *Redactor) Redact(text string) (string, Report) {
	rep := Report{}
	if !r.Enabled() {
		return text, rep
	}
	replace := func(kind string, re *regexp.Regexp, placeholder string) {
		if !r.kinds[kind] {
			return
		}
		n := len(re.FindAllStringIndex(text, -1))
		if n > 0 {
			text = re.ReplaceAllLiteralString(text, placeholder)
			rep[kind] += n
		}
	}
	replace(Email, emailRE, EmailPlaceholder)
	replace(URL, urlRE, URLPlaceholder)
	replace(Phone, phoneRE, PhonePlaceholder)
	if r.kinds[Name] {
		for _, n := range r.names {
			if c := strings.Count(text, n); c > 0 {
				text = strings.ReplaceAll(text, n, NamePlaceholder)
				rep[Name] += c
			}
		}
	}
	return text, rep
}

// Describe is a stable description of the rules for provenance and cache
// keys: the enabled kinds and, for names, a hash of the sorted list rather
// than the names themselves. "none" when nothing is enabled.
func (r *Redactor) Describe() string {
	if !r.Enabled() {
		return "none"
	}
	var parts []string
	for _, k := range Kinds {
		if !r.kinds[k] {
			continue
		}
		if k == Name {
			sorted := append([]string(nil), r.names...)
			sort.Strings(sorted)
			sum := sha256.Sum256([]byte(strings.Join(sorted, "\n")))
			k = fmt.Sprintf("name(%d:%s)", len(sorted), hex.EncodeToString(sum[:])[:12])
		}
		parts = append(parts, k)
	}
	return strings.Join(parts, ",")
}

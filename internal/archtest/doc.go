// Package archtest holds the tests that keep docs/ARCHITECTURE.md true: the
// floors (every package of the module has a floor, and a package imports
// only packages on lower floors or the same-floor packages the document
// names), lib/reproduce's layout rule, and the recipes of "Where a change
// goes" (a command, a web page, a metric, a metric column, an analysis, an
// artefact). It has no code of its own.
package archtest

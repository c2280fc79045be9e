// Package archtest holds the tests that keep docs/ARCHITECTURE.md true: the
// floors (every package of the module has a floor, and a package imports
// only packages on lower floors or the same-floor packages the document
// names), lib/reproduce's layout rule, the recipes of "Where a change goes"
// (a command, a web page, a metric, a metric column, an analysis, an
// artefact), and the package table (every package under lib/ and nothing
// else). It also keeps the documentation whole: README.md stays a short
// front page, every relative link of README.md and docs/*.md reaches a file
// (and a heading), and every command is shown there. It has no code of its
// own.
package archtest

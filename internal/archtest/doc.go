// Package archtest holds the test that keeps the floors of
// docs/ARCHITECTURE.md: every package of the module has a floor, and a
// package imports only packages on lower floors or the same-floor packages
// the document names. It has no code of its own.
package archtest

// Package conformance locates the spec conformance pack that ships in
// testdata/conformance: small inputs and the outputs an independent
// implementation of the spec produces from them. Tests use it as golden data;
// its loaders (QuestionSet, ReadJSON, ReadRun, ExpectedMessages, ...) fail the
// calling test on error.
package conformance

import (
	"path/filepath"
	"runtime"
)

// Dir returns the absolute path of testdata/conformance in this repository.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("conformance: cannot locate source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "conformance")
}

// Path joins elem onto Dir.
func Path(elem ...string) string {
	return filepath.Join(append([]string{Dir()}, elem...)...)
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// distinctOutputs returns a usage error when two of the output flags name
// one file, which would be written twice and hold only the last: flags
// maps each flag name ("--qrels") to its value; unset ("") values and "-"
// (standard output) are skipped. Paths are compared cleaned and absolute,
// and by os.SameFile when both exist (a link and its target).
func distinctOutputs(flags ...[2]string) error {
	for i, a := range flags {
		for _, b := range flags[i+1:] {
			if samePath(a[1], b[1]) {
				return fmt.Errorf("%w: %s and %s name the same file %s; give each its own", errUsage, a[0], b[0], a[1])
			}
		}
	}
	return nil
}

func samePath(a, b string) bool {
	if a == "" || b == "" || a == "-" || b == "-" {
		return false
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	if errA == nil && errB == nil && absA == absB {
		return true
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// within reports whether path is dir or lies inside it (cleaned, absolute
// paths, links not resolved).
func within(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	return p == d || strings.HasPrefix(p, d+string(filepath.Separator))
}

//go:build !linux

package atomicdir

func replace(tmp, target string) (string, error) { return replaceAside(tmp, target) }

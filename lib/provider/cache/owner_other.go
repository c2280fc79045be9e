//go:build !unix

package cache

// processRunning cannot look processes up here: owners are judged by their
// heartbeat alone.
func processRunning(int) (running, known bool) { return false, false }

func processStart(int) (string, bool) { return "", false }

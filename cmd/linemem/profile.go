package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// Profiling environment variables: a file name in LINEMEM_CPUPROFILE records
// a CPU profile of the whole command, one in LINEMEM_MEMPROFILE a heap
// profile (allocations since the start, and what is live at the end), one
// in LINEMEM_TRACE an execution trace (where wall time goes: goroutines
// waiting on each other, system calls, garbage collection). The profiles are
// read by `go tool pprof`, the trace by `go tool trace`; unset, nothing is
// recorded.
const (
	envCPUProfile = "LINEMEM_CPUPROFILE"
	envMemProfile = "LINEMEM_MEMPROFILE"
	envTrace      = "LINEMEM_TRACE"
)

// profiled runs the command run under the profiles the environment variables
// ask for and returns its exit code; a profile that cannot be written is
// reported on stderr and never changes the exit code.
func profiled(stderr io.Writer, run func() int) int {
	stop := startProfiling(stderr)
	defer stop()
	return run()
}

// recorders record from the start of a command to its end: the variable
// naming the file, and how recording into it starts and stops.
var recorders = []struct {
	env   string
	start func(io.Writer) error
	stop  func()
}{
	{envCPUProfile, pprof.StartCPUProfile, pprof.StopCPUProfile},
	{envTrace, trace.Start, trace.Stop},
}

func startProfiling(stderr io.Writer) (stop func()) {
	var stops []func()
	for _, r := range recorders {
		path := os.Getenv(r.env)
		if path == "" {
			continue
		}
		f, err := os.Create(path)
		if err == nil {
			if err = r.start(f); err != nil {
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "linemem: %s: %v\n", r.env, err)
			continue
		}
		stops = append(stops, func() {
			r.stop()
			f.Close()
		})
	}
	if path := os.Getenv(envMemProfile); path != "" {
		runtime.MemProfileRate = 64 << 10
		stops = append(stops, func() {
			f, err := os.Create(path)
			if err == nil {
				runtime.GC() // the live heap as of the end of the command
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				fmt.Fprintf(stderr, "linemem: %s: %v\n", envMemProfile, err)
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

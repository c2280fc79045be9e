//go:build unix

package cache

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// processRunning asks the system whether a process has pid (signal 0 checks
// without sending anything; EPERM means it exists under another user).
func processRunning(pid int) (running, known bool) {
	err := unix.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, unix.EPERM):
		return true, true
	case errors.Is(err, unix.ESRCH):
		return false, true
	}
	return false, false
}

// processStart is field 22 of /proc/PID/stat (starttime, clock ticks after
// boot), read after the command name's closing parenthesis since the name
// may hold spaces. Systems without /proc report it unknown.
func processStart(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", false
	}
	fields := strings.Fields(s[i+1:]) // fields 3, 4, … of the line
	if len(fields) < 20 {
		return "", false
	}
	return fields[19], true
}

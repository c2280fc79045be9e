package cache

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Owner names one run holding claims: its process, when that process
// started, random bits telling runs of one process apart, and the host.
type Owner struct {
	PID   int
	Start string // the process's start as the system reports it (processStart); "" where unknown
	Nonce string
	Host  string // os.Hostname; "" where unknown
}

// NewOwner names a new run of this process.
func NewOwner() Owner {
	b := make([]byte, 6)
	rand.Read(b)
	pid := os.Getpid()
	start, _ := processStart(pid)
	host, _ := os.Hostname()
	return Owner{PID: pid, Start: start, Nonce: hex.EncodeToString(b), Host: host}
}

// String is "PID/START/NONCE@HOST", the form kept in provider_claims.owner;
// the host comes last, so that ParseOwner cuts at the first "@".
func (o Owner) String() string {
	return fmt.Sprintf("%d/%s/%s@%s", o.PID, o.Start, o.Nonce, o.Host)
}

// ParseOwner reads Owner.String. Any other text (an owner written by an
// older version, "PID-NONCE") gives an Owner with PID 0, which Gone never
// reports gone: such a claim is taken over only once its heartbeat is stale.
func ParseOwner(s string) Owner {
	ids, host, ok := strings.Cut(s, "@")
	parts := strings.Split(ids, "/")
	if !ok || len(parts) != 3 {
		return Owner{}
	}
	pid, err := strconv.Atoi(parts[0])
	if err != nil || pid <= 0 {
		return Owner{}
	}
	return Owner{PID: pid, Start: parts[1], Nonce: parts[2], Host: host}
}

// Gone reports that the owner's process has ended: it ran on this host and
// either no process has its PID now, or the process that has it started at
// another time (the PID was reused). An owner on another host, or one whose
// process cannot be looked up, is never reported gone.
func (o Owner) Gone() bool {
	if o.PID <= 0 || o.Host == "" {
		return false
	}
	if host, err := os.Hostname(); err != nil || host != o.Host {
		return false
	}
	running, known := processRunning(o.PID)
	if !known {
		return false
	}
	if !running {
		return true
	}
	start, ok := processStart(o.PID)
	return ok && o.Start != "" && start != o.Start
}

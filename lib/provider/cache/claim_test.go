package cache_test

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/provider/cache"
)

// endedOwner is an owner on this host whose process has exited.
func endedOwner(t *testing.T) cache.Owner {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("process lookup is tested on Linux")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	o := cache.NewOwner()
	o.PID = cmd.Process.Pid
	return o
}

func TestClaimTakeover(t *testing.T) {
	ctx := context.Background()
	key := cache.NewKey("入力", fakeProvider{"openai", "m", "a=1"})
	t0 := time.Unix(1_700_000_000, 0)
	live := cache.NewOwner() // this process: running
	reused := cache.NewOwner()
	reused.Start = "1" // this PID, but a process started at another time
	elsewhere := cache.NewOwner()
	elsewhere.Host = "another-host"
	const older = "4242-a1b2c3" // the owner form of an older version
	for _, c := range []struct {
		name         string
		holder       string
		after        time.Duration // since the holder's last heartbeat
		held, tookOv bool
	}{
		{"live holder, fresh heartbeat", live.String(), 0, false, false},
		{"live holder, heartbeat just within ClaimStale", live.String(), cache.ClaimStale, false, false},
		{"live holder, heartbeat stale", live.String(), cache.ClaimStale + time.Nanosecond, true, true},
		{"ended process on this host", endedOwner(t).String(), 0, true, true},
		{"PID reused by a later process", reused.String(), 0, true, true},
		{"holder on another host, fresh", elsewhere.String(), cache.ClaimStale / 2, false, false},
		{"older owner form, fresh", older, cache.ClaimStale / 2, false, false},
		{"older owner form, stale", "4242-a1b2c3", 2 * cache.ClaimStale, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cc, st := openCache(t)
			now := t0
			cc.Now = func() time.Time { return now }
			if err := cc.Renew(ctx, cache.Owner{}); err != nil { // creates the claims table
				t.Fatal(err)
			}
			if _, err := st.DB().Exec(`INSERT INTO provider_claims VALUES (?, ?, ?, ?, ?, ?)`,
				key.InputSHA256, key.Provider, key.Model, key.ParamsSHA256, c.holder, t0.UnixNano()); err != nil {
				t.Fatal(err)
			}
			now = t0.Add(c.after)
			me := cache.NewOwner()
			me.Nonce = "me"
			got, err := cc.Claim(ctx, key, me)
			if err != nil {
				t.Fatal(err)
			}
			if got.Held != c.held || got.TookOver != c.tookOv {
				t.Errorf("Claim = %+v, want Held %v TookOver %v", got, c.held, c.tookOv)
			}
		})
	}
}

// TestClaimHeartbeat: a holder that renews its claims keeps them past
// ClaimStale; once it stops, the claim is taken over after ClaimStale; the
// holder's own claim is held again without a takeover.
func TestClaimHeartbeat(t *testing.T) {
	ctx := context.Background()
	key := cache.NewKey("入力", fakeProvider{"openai", "m", "a=1"})
	cc, _ := openCache(t)
	now := time.Unix(1_700_000_000, 0)
	cc.Now = func() time.Time { return now }
	a, b := cache.NewOwner(), cache.NewOwner()
	step := func(d time.Duration, who cache.Owner, want cache.Claimed) {
		t.Helper()
		now = now.Add(d)
		got, err := cc.Claim(ctx, key, who)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("at +%v %s: Claim = %+v, want %+v", d, who.Nonce, got, want)
		}
	}
	step(0, a, cache.Claimed{Held: true})
	for range 3 {
		now = now.Add(cache.ClaimStale - time.Second)
		if err := cc.Renew(ctx, a); err != nil {
			t.Fatal(err)
		}
		step(time.Second, b, cache.Claimed{})
	}
	step(0, a, cache.Claimed{Held: true})
	step(cache.ClaimStale+time.Nanosecond, b, cache.Claimed{Held: true, TookOver: true})
	step(0, a, cache.Claimed{})
	if err := cc.Release(ctx, key, b); err != nil {
		t.Fatal(err)
	}
	step(0, a, cache.Claimed{Held: true})
}

func TestOwnerString(t *testing.T) {
	o := cache.Owner{PID: 12, Start: "345", Nonce: "ab", Host: "h@st"}
	if s := o.String(); s != "12/345/ab@h@st" {
		t.Errorf("String = %q", s)
	}
	if p := cache.ParseOwner(o.String()); p != o {
		t.Errorf("ParseOwner(%q) = %+v, want %+v", o.String(), p, o)
	}
	for _, s := range []string{"4242-a1b2c3", "x/1/ab@h", "0/1/ab@h", "1/ab@h", "1/2/3"} {
		if p := cache.ParseOwner(s); p != (cache.Owner{}) || p.Gone() {
			t.Errorf("ParseOwner(%q) = %+v, want the zero Owner, never gone", s, p)
		}
	}
	if cache.NewOwner().Gone() {
		t.Error("this process is reported gone")
	}
}

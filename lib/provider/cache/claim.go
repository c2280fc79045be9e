package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// claimsSchema keeps who is sending which input right now, so that runs
// sharing a database never pay twice for one output. owner is Owner.String;
// claimed_at is the holder's last heartbeat (Unix nanoseconds), renewed every
// ClaimHeartbeat while the holder runs.
const claimsSchema = `
CREATE TABLE IF NOT EXISTS provider_claims (
	input_sha256  TEXT NOT NULL,
	provider      TEXT NOT NULL,
	model         TEXT NOT NULL,
	params_sha256 TEXT NOT NULL,
	owner         TEXT NOT NULL,
	claimed_at    INTEGER NOT NULL, -- Unix nanoseconds of the last heartbeat
	PRIMARY KEY (input_sha256, provider, model, params_sha256)
) WITHOUT ROWID;
`

// ClaimHeartbeat is how often a run renews its claims (Renew) while it runs.
const ClaimHeartbeat = time.Second

// ClaimStale is how old a claim's heartbeat may grow before its holder is
// presumed gone and another run takes the claim over: ten missed heartbeats,
// so that a run held up by a busy database is not robbed, while a holder on
// another host (whose process cannot be looked up) stalls others for seconds,
// not minutes. A holder on this host whose process is no longer running is
// taken over at once (Owner.Gone).
const ClaimStale = 10 * ClaimHeartbeat

// Claimed is the outcome of Claim.
type Claimed struct {
	Held     bool // the owner now holds the claim
	TookOver bool // … taken from a holder that is gone or whose heartbeat is stale
}

// Claim records that owner is about to send the input of key. The owner
// holds the claim when there was none, it held it already, or the holder is
// gone (Owner.Gone) or its heartbeat is older than ClaimStale; otherwise
// another run holds it, and that run will put the output in the cache or
// release the claim. A takeover is a compare-and-swap on the holder's row, so
// of two runs taking over one claim at once exactly one holds it.
func (c *Cache) Claim(ctx context.Context, key Key, owner Owner) (Claimed, error) {
	if _, err := c.db.ExecContext(ctx, claimsSchema); err != nil {
		return Claimed{}, fmt.Errorf("cache: create claims table: %w", err)
	}
	me := owner.String()
	for range 2 {
		now := c.Now().UnixNano()
		var holder string
		var beat int64
		err := c.db.QueryRowContext(ctx, `SELECT owner, claimed_at FROM provider_claims WHERE input_sha256 = ? AND provider = ? AND model = ? AND params_sha256 = ?`,
			key.InputSHA256, key.Provider, key.Model, key.ParamsSHA256).Scan(&holder, &beat)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res, err := c.db.ExecContext(ctx, `INSERT OR IGNORE INTO provider_claims (input_sha256, provider, model, params_sha256, owner, claimed_at) VALUES (?, ?, ?, ?, ?, ?)`,
				key.InputSHA256, key.Provider, key.Model, key.ParamsSHA256, me, now)
			if err != nil {
				return Claimed{}, fmt.Errorf("cache: claim: %w", err)
			}
			if n, err := res.RowsAffected(); err != nil || n == 1 {
				return Claimed{Held: n == 1}, err
			}
			continue // another run claimed it between the read and the insert
		case err != nil:
			return Claimed{}, fmt.Errorf("cache: read claim: %w", err)
		}
		if holder != me && now-beat <= ClaimStale.Nanoseconds() && !ParseOwner(holder).Gone() {
			return Claimed{}, nil
		}
		res, err := c.db.ExecContext(ctx, `UPDATE provider_claims SET owner = ?, claimed_at = ?
WHERE input_sha256 = ? AND provider = ? AND model = ? AND params_sha256 = ? AND owner = ? AND claimed_at = ?`,
			me, now, key.InputSHA256, key.Provider, key.Model, key.ParamsSHA256, holder, beat)
		if err != nil {
			return Claimed{}, fmt.Errorf("cache: claim: %w", err)
		}
		n, err := res.RowsAffected()
		return Claimed{Held: n == 1, TookOver: n == 1 && holder != me}, err
	}
	return Claimed{}, nil
}

// Renew stamps every claim owner holds with the current time: the heartbeat
// that tells other runs the owner is still sending.
func (c *Cache) Renew(ctx context.Context, owner Owner) error {
	if _, err := c.db.ExecContext(ctx, claimsSchema); err != nil {
		return fmt.Errorf("cache: create claims table: %w", err)
	}
	if _, err := c.db.ExecContext(ctx, `UPDATE provider_claims SET claimed_at = ? WHERE owner = ?`, c.Now().UnixNano(), owner.String()); err != nil {
		return fmt.Errorf("cache: renew claims: %w", err)
	}
	return nil
}

// Release drops owner's claim on key, if it holds one.
func (c *Cache) Release(ctx context.Context, key Key, owner Owner) error {
	if _, err := c.db.ExecContext(ctx, claimsSchema); err != nil {
		return fmt.Errorf("cache: create claims table: %w", err)
	}
	_, err := c.db.ExecContext(ctx, `DELETE FROM provider_claims WHERE input_sha256 = ? AND provider = ? AND model = ? AND params_sha256 = ? AND owner = ?`,
		key.InputSHA256, key.Provider, key.Model, key.ParamsSHA256, owner.String())
	if err != nil {
		return fmt.Errorf("cache: release claim: %w", err)
	}
	return nil
}

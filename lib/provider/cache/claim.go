package cache

import (
	"context"
	"fmt"
	"time"
)

// claimsSchema keeps who is sending which input right now, so that runs
// sharing a database never pay twice for one output.
const claimsSchema = `
CREATE TABLE IF NOT EXISTS provider_claims (
	input_sha256  TEXT NOT NULL,
	provider      TEXT NOT NULL,
	model         TEXT NOT NULL,
	params_sha256 TEXT NOT NULL,
	owner         TEXT NOT NULL,
	claimed_at    INTEGER NOT NULL, -- Unix nanoseconds
	PRIMARY KEY (input_sha256, provider, model, params_sha256)
) WITHOUT ROWID;
`

// ClaimTTL is how long a claim holds without being released: after it, the
// owner is presumed dead (killed mid-request) and another run may take the
// claim over and send the input.
const ClaimTTL = 10 * time.Minute

// Claim records, in one statement, that owner is about to send the input of
// key. It reports true when owner now holds the claim: there was none, owner
// held it already, or the holder's claim is older than ttl. It reports false
// while another owner holds a live claim; that run will put the output in
// the cache or release the claim.
func (c *Cache) Claim(ctx context.Context, key Key, owner string, ttl time.Duration) (bool, error) {
	if _, err := c.db.ExecContext(ctx, claimsSchema); err != nil {
		return false, fmt.Errorf("cache: create claims table: %w", err)
	}
	now := c.Now().UnixNano()
	res, err := c.db.ExecContext(ctx, `
INSERT INTO provider_claims (input_sha256, provider, model, params_sha256, owner, claimed_at) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (input_sha256, provider, model, params_sha256) DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at
WHERE provider_claims.owner = excluded.owner OR provider_claims.claimed_at < ?`,
		key.InputSHA256, key.Provider, key.Model, key.ParamsSHA256, owner, now, now-ttl.Nanoseconds())
	if err != nil {
		return false, fmt.Errorf("cache: claim: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Release drops owner's claim on key, if it holds one.
func (c *Cache) Release(ctx context.Context, key Key, owner string) error {
	if _, err := c.db.ExecContext(ctx, claimsSchema); err != nil {
		return fmt.Errorf("cache: create claims table: %w", err)
	}
	_, err := c.db.ExecContext(ctx, `DELETE FROM provider_claims WHERE input_sha256 = ? AND provider = ? AND model = ? AND params_sha256 = ? AND owner = ?`,
		key.InputSHA256, key.Provider, key.Model, key.ParamsSHA256, owner)
	if err != nil {
		return fmt.Errorf("cache: release claim: %w", err)
	}
	return nil
}

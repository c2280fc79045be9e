package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// SettingMe is the setting that names the person whose history the
// database holds, as a sender name of the chats (`ask --me`).
const SettingMe = "me"

// settingsSchema is the table of a database's settings: one value per
// key. It is created by the first SetSetting, so a database that never
// had a setting is not written to.
const settingsSchema = `CREATE TABLE IF NOT EXISTS settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
)`

// Setting returns the value of the setting key, "" when it was never set.
func (s *Store) Setting(key string) (string, error) {
	var v string
	err := s.db.QueryRow(`SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", nil
	case err != nil && strings.Contains(err.Error(), "no such table"):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("store: read setting %s: %w", key, err)
	}
	return v, nil
}

// SetSetting stores value under key, replacing what was there.
func (s *Store) SetSetting(key, value string) error {
	return s.inTx(func(tx *sql.Tx) error {
		if _, err := tx.Exec(settingsSchema); err != nil {
			return fmt.Errorf("store: create settings: %w", err)
		}
		if _, err := tx.Exec(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
			return fmt.Errorf("store: write setting %s: %w", key, err)
		}
		return nil
	})
}

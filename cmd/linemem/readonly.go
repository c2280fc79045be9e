package main

import (
	"os"

	"github.com/linemem/linemem/lib/store"
)

// openReadOnlyStore opens the database at path for a command that only reads
// it (store.OpenReadOnly): it works in a read-only folder and never writes. A
// missing or empty file gets openExistingStore's message.
func openReadOnlyStore(path string) (*store.Store, error) {
	if fi, err := os.Stat(path); err != nil || fi.Mode().IsRegular() && fi.Size() == 0 {
		return openExistingStore(path)
	}
	return store.OpenReadOnly(path)
}

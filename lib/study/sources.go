package study

import (
	"fmt"

	"github.com/linemem/linemem/lib/datafolder"
)

// SourceLabel is the manifest path of the i-th source (from 0, in ingest
// order, which is lexical): "sources/#001". Export files are named after chat
// partners, so the public manifest identifies a source by this label, its
// SHA-256 and its size; Options.SourceNames keeps the file names instead.
func SourceLabel(i int) string { return fmt.Sprintf("%s/#%03d", datafolder.SourcesDir, i+1) }

// recordSource hashes the i-th source for the manifest under SourceLabel(i),
// or under its path in the data folder with Options.SourceNames.
func recordSource(s *Study, i int, path string) error {
	if err := record(s, path); err != nil {
		return err
	}
	if !s.Opts.SourceNames {
		s.Inputs[len(s.Inputs)-1].Path = SourceLabel(i)
	}
	return nil
}

package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datafolder"
)

// adoptFolderChunking makes ingest cut the folder's sources in the unit its
// qrels were resolved in: a converted folder whose dataset.json names a
// chunking other than the paper's (LongMemEval's session documents) is
// ingested with it when Options.Chunking is the paper's default, so chunk IDs
// match the qrels. Options.Chunking set to anything else and a folder with
// another unit is an error; a folder without dataset.json (a LINE history,
// data/synthetic) keeps Options.Chunking.
func adoptFolderChunking(s *Study) error {
	b, err := os.ReadFile(s.Folder.Path(datafolder.DatasetFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var info struct {
		Chunking *chunking.Options `json:"chunking"`
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return fmt.Errorf("%s: %w", s.Folder.Path(datafolder.DatasetFile), err)
	}
	switch {
	case info.Chunking == nil || *info.Chunking == s.Opts.Chunking:
		return nil
	case s.Opts.Chunking != chunking.DefaultOptions():
		return fmt.Errorf("%s: the folder's chunks are cut as %+v, the run asks for %+v: its qrels name chunks of the former", s.Folder.Path(datafolder.DatasetFile), *info.Chunking, s.Opts.Chunking)
	}
	s.Opts.Chunking = *info.Chunking
	return nil
}

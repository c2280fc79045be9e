package study

import (
	"fmt"

	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/experiment"
)

// validate refuses a study that cannot be evaluated as the paper's protocol
// asks: B outside 1…experiment.MaxBootstrap, no question with primary gold,
// or (unless Options.AllowMissingGold) a shipped qrels row whose chunk is not
// in the corpus. With AllowMissingGold each such row is a warning on the log
// and counts in the denominators (spec §10).
func validate(s *Study) error {
	if err := experiment.CheckBootstrap(s.Protocol.B); err != nil {
		return err
	}
	if err := experiment.CheckEvaluable(s.Questions, s.Qrels, s.Folder.Path(datafolder.QuestionsFile), goldPath(s)); err != nil {
		return err
	}
	missing := s.MissingGold()
	if len(missing) == 0 {
		return nil
	}
	if !s.Opts.AllowMissingGold {
		corpus := make(map[string]bool, len(s.Chunks))
		for _, c := range s.Chunks {
			corpus[c.ID] = true
		}
		err := experiment.CheckGoldInCorpus(goldPath(s), s.Qrels, corpus)
		return fmt.Errorf("%w (--allow-missing-gold keeps them as a warning)", err)
	}
	for _, g := range missing {
		fmt.Fprintf(s.Opts.Log, "warning: gold chunk %s of %s (rel %d) is not in the corpus; it still counts in the denominators\n", g.ChunkID, g.QID, g.Rel)
	}
	return nil
}

// goldPath is the file the qrels came from.
func goldPath(s *Study) string {
	if s.Folder.Has(datafolder.QrelsFile) {
		return s.Folder.Path(datafolder.QrelsFile)
	}
	return s.Folder.Path(datafolder.EvidenceFile)
}

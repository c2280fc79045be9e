package reproduce

// Slugs of the artefacts beyond the paper (lib/beyond computes them with the
// Study's protocol; spec §13 fixes the names). Their tables and figures
// carry no paper number and are written under these slugs.
const (
	TokenizersSlug       = "beyond_tokenizers"
	TokenizersFigureSlug = "beyond_tokenizers_recall5"
	FusionSlug           = "beyond_fusion"
	FusionFigureSlug     = "beyond_fusion_recall5_vs_beta"
	HeldOutSlug          = "beyond_heldout_selection"
	AggregateSlug        = "beyond_aggregate"
	QueryExpansionSlug   = "beyond_query_expansion"
	AblationSlug         = "beyond_embedding_text_ablation"
	AblationFigureSlug   = "beyond_embedding_text_ablation_recall5"
	LosslessSlug         = "beyond_lossless"
	SelectionAwareSlug   = "beyond_selection_aware"
	EvidenceGroupsSlug   = "beyond_evidence_groups"
)

// CeilingBaseName names the candidate-ceiling table files (no paper number).
const CeilingBaseName = "ceiling_candidates"

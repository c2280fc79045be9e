package reproduce

import (
	"fmt"
	"strconv"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
)

// heldOutArtefact is the held-out selection table.
var heldOutArtefact = tableArtefact(HeldOutSlug, NeedsSingles|NeedsSweep, false, func(s *Study) (report.Table, error) {
	h, err := beyond.HeldOutSelection(s.Outcome, HeldOutSplits, s.Protocol.Seed)
	if err != nil {
		return report.Table{}, err
	}
	return heldOutTable(h, selectionLabel(s)), nil
})

// HeldOutSplits is the number of random half splits the HeldOutSlug table
// draws (seeded by the protocol's bootstrap seed).
const HeldOutSplits = 200

// heldOutTable summarises the splits (HeldOut.Summary) as HeldOutSlug: mean and 2.5th–97.5th
// percentile over splits of the in-sample and held-out selection metric
// (label, the paper's Recall@5) of the
// selected hybrid, the optimism, the held-out gain over the selected single
// retriever, and how often the gain is positive and the full-data pairing
// and configuration are chosen again.
func heldOutTable(h *beyond.HeldOut, label string) report.Table {
	k := len(h.Splits)
	sum := h.Summary()
	row := func(label string, iv experiment.Interval, signed bool) []string {
		f := report.F3
		if signed {
			f = report.Signed3
		}
		return []string{label, f(iv.Mean), report.CI3(iv.Lo, iv.Hi)}
	}
	count := func(label string, c int) []string {
		return []string{label, fmt.Sprintf("%d of %d", c, k), "–"}
	}
	half := strconv.Itoa(h.Questions / 2)
	return report.Table{Slug: HeldOutSlug, Caption: fmt.Sprintf("Selection on one half of the questions, evaluation on the other (%d random splits)", k),
		Columns: []string{"Quantity", "Mean over splits", "2.5th–97.5th percentile"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight},
		Rows: [][]string{
			row(label+" of the selected hybrid, selection half", sum.InSample, false),
			row(label+" of the selected hybrid, held-out half", sum.HeldOut, false),
			row("Optimism (selection − held-out)", sum.Optimism, true),
			row(label+" of the selected single retriever, held-out half", sum.SingleHeldOut, false),
			row("Held-out gain of the hybrid over the single retriever", sum.Gain, true),
			count("Splits with a positive held-out gain", sum.Positive),
			count("Splits selecting the full-data pairing ("+h.Full.Pairing+")", sum.SamePairing),
			count("Splits selecting the full-data configuration", sum.SameConfig),
		},
		Notes: []string{
			fmt.Sprintf("Each split shuffles the %d evaluated questions (math/rand/v2 PCG, seed %d) and selects on %s of them with the paper's rule over the 126 hybrid configurations, and over the five single retrievers, then scores both on the other %d.",
				h.Questions, h.Seed, half, h.Questions-h.Questions/2),
			fmt.Sprintf("Selected on all %d questions: %s, %s %s (in-sample). Percentiles describe variation over overlapping splits, not a confidence interval; selection on a half is noisier than on all questions.",
				h.Questions, h.Full.Name, label, report.F3(h.Full.Result.Mean[h.Metric])),
		}}
}

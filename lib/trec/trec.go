// Package trec reads and writes the TREC formats that linemem exchanges with
// other evaluation tools (spec §11): qrels lines `qid 0 chunk_id rel` and run
// lines `qid Q0 chunk_id rank score tag`. Files written here are accepted by
// trec_eval, ranx and ir_measures. The types it reads and writes are
// lib/ranking's; it imports lib/ranking and lib/inputerr only.
package trec

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/regularfile"
)

// Qrels is ranking.Qrels.
//
// Deprecated: use ranking.Qrels; trec only reads and writes it.
type Qrels = ranking.Qrels

// Hit is ranking.Hit.
//
// Deprecated: use ranking.Hit.
type Hit = ranking.Hit

// Run is ranking.Run.
//
// Deprecated: use ranking.Run.
type Run = ranking.Run

// InputError names the file and line of malformed input and what was expected.
type InputError = inputerr.Error

// ReadQrelsFile reads a qrels file; see ReadQrels.
func ReadQrelsFile(path string) (ranking.Qrels, error) {
	f, err := ReadQrelsFileWith(path, QrelsOptions{})
	return f.Qrels, err
}

// ReadQrelsFileWith reads a qrels file; see ReadQrelsWith.
func ReadQrelsFileWith(path string, opts QrelsOptions) (QrelsFile, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return QrelsFile{}, err
	}
	defer f.Close()
	return ReadQrelsWith(path, f, opts)
}

// ReadQrels parses whitespace-separated `qid iteration chunk_id rel` lines
// as ReadQrelsWith does by default: conflicting rows are an error.
func ReadQrels(name string, r io.Reader) (ranking.Qrels, error) {
	f, err := ReadQrelsWith(name, r, QrelsOptions{})
	return f.Qrels, err
}

// QrelsOptions say how ReadQrelsWith treats a row that judges a (qid,
// chunk_id) pair judged on an earlier line with another relevance.
type QrelsOptions struct {
	// AllowConflicts keeps the last row of such a pair, with a warning
	// naming both lines, instead of failing.
	AllowConflicts bool
}

// QrelsFile is a qrels file as read.
type QrelsFile struct {
	Qrels     ranking.Qrels
	FirstLine map[string]int // 1-based line of each qid's first row
	Warnings  []inputerr.Error
}

// ReadQrelsWith parses whitespace-separated `qid iteration chunk_id rel`
// lines. Blank lines are ignored. rel must be an integer in 0…2. A repeated
// (qid, chunk_id) pair with the same relevance is the same judgement; with
// another relevance it is an *InputError at the later line naming the
// earlier one, unless opts.AllowConflicts, when the later row is kept with a
// warning. name is used in errors.
func ReadQrelsWith(name string, r io.Reader, opts QrelsOptions) (QrelsFile, error) {
	out := QrelsFile{Qrels: ranking.Qrels{}, FirstLine: map[string]int{}}
	q := out.Qrels
	judgedAt := map[[2]string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if !utf8.ValidString(text) {
			return QrelsFile{}, inputerr.At(name, line, "valid UTF-8")
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 4 {
			return QrelsFile{}, inputerr.At(name, line, fmt.Sprintf("4 fields `qid 0 chunk_id rel`, got %d", len(fields)))
		}
		rel, err := strconv.Atoi(fields[3])
		if err != nil || rel < 0 || rel > 2 {
			return QrelsFile{}, inputerr.At(name, line, fmt.Sprintf("relevance 0, 1 or 2 in field 4, got %q", fields[3]))
		}
		qid, chunk := fields[0], fields[2]
		if q[qid] == nil {
			q[qid] = map[string]int{}
			out.FirstLine[qid] = line
		}
		if prev, seen := q[qid][chunk]; seen && prev != rel {
			conflict := inputerr.Atf(name, line, "one relevance per (qid, chunk_id); %s %s is judged %d on line %d and %d here", qid, chunk, prev, judgedAt[[2]string{qid, chunk}], rel)
			if !opts.AllowConflicts {
				conflict.Expected += " (linemem's --allow-duplicate-qrels keeps the last row)"
				return QrelsFile{}, conflict
			}
			conflict.Expected += "; kept the last row"
			out.Warnings = append(out.Warnings, *conflict)
		}
		q[qid][chunk] = rel
		judgedAt[[2]string{qid, chunk}] = line
	}
	if err := sc.Err(); err != nil {
		return QrelsFile{}, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// WriteQrels writes q sorted by qid, then chunk_id.
func WriteQrels(w io.Writer, q ranking.Qrels) error {
	bw := bufio.NewWriter(w)
	for _, qid := range sortedKeys(q) {
		docs := q[qid]
		ids := make([]string, 0, len(docs))
		for id := range docs {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			fmt.Fprintf(bw, "%s 0 %s %d\n", qid, id, docs[id])
		}
	}
	return bw.Flush()
}

// WriteRun writes run lines for the qids in order (each qid's hits in the
// given order, rank from 1), with scores at full precision ('g', shortest
// representation that round-trips a float64).
func WriteRun(w io.Writer, qids []string, run ranking.Run, tag string) error {
	bw := bufio.NewWriter(w)
	for _, qid := range qids {
		for i, h := range run[qid] {
			fmt.Fprintf(bw, "%s Q0 %s %d %s %s\n", qid, h.ChunkID, i+1, strconv.FormatFloat(h.Score, 'g', -1, 64), tag)
		}
	}
	return bw.Flush()
}

// ReadRun parses `qid Q0 chunk_id rank score tag` lines; hits are ordered by
// rank. name is used in errors.
func ReadRun(name string, r io.Reader) (ranking.Run, error) {
	type ranked struct {
		rank int
		hit  ranking.Hit
	}
	byQ := map[string][]ranked{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 6 {
			return nil, inputerr.At(name, line, fmt.Sprintf("6 fields `qid Q0 chunk_id rank score tag`, got %d", len(fields)))
		}
		rank, err := strconv.Atoi(fields[3])
		if err != nil || rank < 1 {
			return nil, inputerr.At(name, line, fmt.Sprintf("a rank ≥ 1 in field 4, got %q", fields[3]))
		}
		score, err := strconv.ParseFloat(fields[4], 64)
		if err != nil {
			return nil, inputerr.At(name, line, fmt.Sprintf("a number in field 5, got %q", fields[4]))
		}
		byQ[fields[0]] = append(byQ[fields[0]], ranked{rank, ranking.Hit{ChunkID: fields[2], Score: score}})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	run := ranking.Run{}
	for qid, rs := range byQ {
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].rank < rs[j].rank })
		hits := make([]ranking.Hit, len(rs))
		for i, r := range rs {
			hits[i] = r.hit
		}
		run[qid] = hits
	}
	return run, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

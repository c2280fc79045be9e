package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/regularfile"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/trec"
)

// ConverterVersion is recorded in every dataset.json. It changes whenever a
// converter's output for the same input changes.
const ConverterVersion = "2"

// Files this package adds to a data folder (lib/datafolder has the layout
// every data folder shares).
const (
	// KeysFile maps every message ID of the folder to the data set's own ID
	// of its turn (LoCoMo's dia_id, …): {"message_id", "key"} per line.
	KeysFile = "keys.jsonl"
	// NativeFile holds every question of the original as the data set's
	// own evaluation reads it (NativeQuestion), for scoring in its own
	// units; written only for data sets that have one (LoCoMo).
	NativeFile = "native.jsonl"
)

// TextPrefixRunes is how many runes of a turn's text an evidence item quotes.
const TextPrefixRunes = 20

// LeadSummaryMinRunes and LeadSummaryMaxRunes bound a lead summary (see
// LeadSummary): the length the paper's summary prompt asks for.
const (
	LeadSummaryMinRunes = 200
	LeadSummaryMaxRunes = 500
)

// Turn is one utterance of a data set, placed in time.
type Turn struct {
	At      time.Time // local time as the data set gives it (or as derived), UTC location
	Sender  string
	Text    string
	Key     string // the data set's own ID of the turn (LoCoMo dia_id, RPC dialogue:utterance, …)
	Session string // the data set's session (or dialogue) the turn belongs to
}

// Source is one conversation file of the folder.
type Source struct {
	Name  string // file name under sources/, ".json"
	Users []string
	Turns []Turn // in time order (stable for equal times)
}

// Ref names one turn of a source as evidence.
type Ref struct {
	Source string
	Key    string
	Role   string // gold.RoleAnswer or gold.RoleSupport
}

// Question is one retrieval question with the turns that answer it.
type Question struct {
	questions.Question
	User     string
	Evidence []Ref
}

// Dropped is a question left out of questions.jsonl, with why.
type Dropped struct {
	QID    string `json:"qid"`
	Reason string `json:"reason"`
}

// Original is one input file of a conversion.
type Original struct {
	File   string `json:"file"` // base name
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// Info is dataset.json: provenance and the counts behind every mapping
// decision. It holds no conversation or question text.
type Info struct {
	Dataset           string         `json:"dataset"`
	Converter         string         `json:"converter"`
	ConverterVersion  string         `json:"converter_version"`
	Originals         []Original     `json:"originals"`
	Settings          map[string]any `json:"settings,omitempty"`
	Users             []string       `json:"users"`
	Sources           int            `json:"sources"`
	Messages          int            `json:"messages"`
	Chunks            int            `json:"chunks"`
	MessagesInNoChunk int            `json:"messages_in_no_chunk"`
	Questions         int            `json:"questions"`
	QuestionsByType   map[string]int `json:"questions_by_type"`
	NoAnswer          int            `json:"noanswer_questions"`
	Gold              GoldCounts     `json:"gold"`
	Dropped           []Dropped      `json:"dropped"`
	Notes             map[string]any `json:"notes,omitempty"`

	// Chunking is the unit the folder's chunks and qrels are cut in when it
	// is not the paper's (chunking.DefaultOptions, then nil); ingest must
	// use the same (ChunkingOf).
	Chunking *chunking.Options `json:"chunking,omitempty"`
	// UsersWithoutFolder lists the users of a --per-user conversion whose
	// folder was not written: none of their questions is a retrieval
	// question (LongMemEval's `_abs` haystacks), so a benchmark would have
	// nothing to score there.
	UsersWithoutFolder []string `json:"users_without_folder,omitempty"`
}

// ChunkingOf returns the folder's chunking: Chunking, or the paper's
// chunking.DefaultOptions when it is nil.
func (i Info) ChunkingOf() chunking.Options {
	if i.Chunking != nil {
		return *i.Chunking
	}
	return chunking.DefaultOptions()
}

// GoldCounts summarises gold.Resolve's report.
type GoldCounts struct {
	EvidenceItems int `json:"evidence_items"`
	Exact         int `json:"exact"`
	Excerpt       int `json:"excerpt"`
	Unmatched     int `json:"unmatched"`
	InNoChunk     int `json:"in_no_chunk"`
	Rel2Pairs     int `json:"rel2_pairs"`
	Rel1Pairs     int `json:"rel1_pairs"`
	NoPrimary     int `json:"questions_without_primary_gold"`
}

// NativeQuestion is one question of the original exactly as the data set's
// own evaluation reads it: every category, evidence IDs verbatim (a list,
// as written), whether or not linemem's reading of them resolves.
type NativeQuestion struct {
	QID      string   `json:"qid"`
	User     string   `json:"user"`
	Category int      `json:"category"`
	Question string   `json:"question"`
	Evidence []string `json:"evidence"`
}

// Folder is a converted data set before it is written.
type Folder struct {
	Info      Info
	Sources   []Source
	Questions []Question
	NoAnswer  []questions.Question
	Native    []NativeQuestion // NativeFile; none for data sets without one
	// SessionSummary returns the summary of a turn's session, or "" when the
	// data set has none (then the chunk gets a LeadSummary).
	SessionSummary func(source string, t Turn) string
}

// Built is a folder rendered to bytes, with its chunks and gold.
type Built struct {
	Info      Info
	Files     map[string][]byte // path relative to the folder → content
	Chunks    []chat.Chunk
	Qrels     ranking.Qrels
	Questions []questions.Question
}

// Build renders the folder: each source as a JSON-by-date export, read back
// with lineexport.ReadJSON and cut with chunking.DefaultOptions exactly as
// ingest does; evidence items quoting each evidence turn; qrels from
// gold.Resolve; one summary per chunk. A question whose evidence resolves
// to no relevance-2 chunk is dropped from questions.jsonl and listed in
// dataset.json with the reason.
func (f *Folder) Build() (*Built, error) {
	b := &Built{Info: f.Info, Files: map[string][]byte{}}
	var msgs []chat.Message
	var keys []messageKey
	turnOf := map[string]map[string]int{} // source → key → index
	sessionOf := map[string]Turn{}        // message ID → turn
	for _, src := range f.Sources {
		data, err := exportJSON(src.Turns)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Name, err)
		}
		res, err := lineexport.ReadJSON(src.Name, bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("datasets: reading back %s: %w", src.Name, err)
		}
		if len(res.Messages) != len(src.Turns) {
			return nil, fmt.Errorf("datasets: %s: wrote %d turns, read %d messages", src.Name, len(src.Turns), len(res.Messages))
		}
		chunks, err := chunking.Build(res.Messages, f.Info.ChunkingOf())
		if err != nil {
			return nil, fmt.Errorf("datasets: chunking %s: %w", src.Name, err)
		}
		b.Info.MessagesInNoChunk += chunking.Uncovered(res.Messages, chunks)
		byKey := map[string]int{}
		for i, t := range src.Turns {
			byKey[t.Key] = i
			sessionOf[res.Messages[i].ID] = t
			keys = append(keys, messageKey{res.Messages[i].ID, t.Key})
		}
		turnOf[src.Name] = byKey
		b.Files[datafolder.SourcesDir+"/"+src.Name] = data
		msgs = append(msgs, res.Messages...)
		b.Chunks = append(b.Chunks, chunks...)
	}
	b.Info.Sources, b.Info.Messages, b.Info.Chunks = len(f.Sources), len(msgs), len(b.Chunks)
	srcIndex := map[string]int{}
	for i, s := range f.Sources {
		srcIndex[s.Name] = i
	}
	var evidence []gold.Evidence
	for _, q := range f.Questions {
		ev := gold.Evidence{QID: q.QID, Question: q.Question.Question, Type: q.Type}
		for _, r := range q.Evidence {
			si, ok := srcIndex[r.Source]
			if !ok {
				return nil, fmt.Errorf("datasets: %s: evidence source %s is not a source of the folder", q.QID, r.Source)
			}
			ti, ok := turnOf[r.Source][r.Key]
			if !ok {
				return nil, fmt.Errorf("datasets: %s: evidence turn %s is not in %s", q.QID, r.Key, r.Source)
			}
			t := f.Sources[si].Turns[ti]
			ev.Items = append(ev.Items, gold.Item{Source: r.Source, Date: t.At.Format(chat.DateLayout), Time: t.At.Format("15:04:05"),
				Sender: t.Sender, TextPrefix: represent.FirstRunes(t.Text, TextPrefixRunes), Role: r.Role})
		}
		evidence = append(evidence, ev)
	}
	qrels, rep := gold.Resolve(evidence, msgs, b.Chunks)
	noPrimary := map[string]bool{}
	for _, qid := range rep.NoPrimary {
		noPrimary[qid] = true
	}
	unchunked := map[string]bool{}
	for _, it := range rep.Unchunked {
		unchunked[it.QID] = true
	}
	b.Info.Gold = GoldCounts{EvidenceItems: len(rep.Items), Exact: rep.Exact, Excerpt: rep.Excerpt, Unmatched: len(rep.Unmatched),
		InNoChunk: len(rep.Unchunked), Rel2Pairs: rep.Rel2, Rel1Pairs: rep.Rel1, NoPrimary: len(rep.NoPrimary)}
	b.Qrels = ranking.Qrels{}
	b.Info.QuestionsByType = map[string]int{}
	var kept []gold.Evidence
	for i, q := range f.Questions {
		if noPrimary[q.QID] {
			reason := "no evidence turn resolved to a chunk"
			if unchunked[q.QID] {
				reason = "its evidence turns fall in no chunk (render-limit trimming)"
			}
			b.Info.Dropped = append(b.Info.Dropped, Dropped{q.QID, reason})
			continue
		}
		b.Questions = append(b.Questions, q.Question)
		b.Qrels[q.QID] = qrels[q.QID]
		b.Info.QuestionsByType[q.Type]++
		kept = append(kept, evidence[i])
	}
	b.Info.Questions, b.Info.NoAnswer = len(b.Questions), len(f.NoAnswer)
	slices.SortFunc(b.Info.Dropped, func(x, y Dropped) int { return strings.Compare(x.QID, y.QID) })
	var err error
	if b.Files[datafolder.QuestionsFile], err = encodeLines(b.Questions); err != nil {
		return nil, err
	}
	if b.Files[datafolder.NoAnswerFile], err = encodeLines(f.NoAnswer); err != nil {
		return nil, err
	}
	if b.Files[KeysFile], err = encodeLines(keys); err != nil {
		return nil, err
	}
	if len(f.Native) > 0 {
		if b.Files[NativeFile], err = encodeLines(f.Native); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	if err := gold.WriteEvidence(&buf, kept); err != nil {
		return nil, err
	}
	b.Files[datafolder.EvidenceFile] = buf.Bytes()
	buf = bytes.Buffer{}
	if err := trec.WriteQrels(&buf, b.Qrels); err != nil {
		return nil, err
	}
	b.Files[datafolder.QrelsFile] = buf.Bytes()
	byID := make(map[string]chat.Message, len(msgs))
	for _, m := range msgs {
		byID[m.ID] = m
	}
	type summaryLine struct {
		ChunkID string `json:"chunk_id"`
		Summary string `json:"summary"`
	}
	var sums []summaryLine
	for _, c := range b.Chunks {
		s := ""
		if f.SessionSummary != nil {
			s = f.SessionSummary(c.Source, sessionOf[c.MessageIDs[0]])
		}
		if s == "" {
			members := make([]chat.Message, len(c.MessageIDs))
			for i, id := range c.MessageIDs {
				members[i] = byID[id]
			}
			s = LeadSummary(members)
		}
		sums = append(sums, summaryLine{c.ID, s})
	}
	if b.Files[datafolder.SummariesFile], err = encodeLines(sums); err != nil {
		return nil, err
	}
	info, err := json.MarshalIndent(b.Info, "", "  ")
	if err != nil {
		return nil, err
	}
	b.Files[datafolder.DatasetFile] = append(info, '\n')
	return b, nil
}

// messageKey is one line of KeysFile.
type messageKey struct {
	MessageID string `json:"message_id"`
	Key       string `json:"key"`
}

// LeadSummary is the extractive stand-in for a summary where a data set has
// none: the chunk's message texts in order, joined by " / ", until at least
// LeadSummaryMinRunes runes, cut at LeadSummaryMaxRunes. It is not a
// summary: on such folders the summary representations measure a lead
// truncation of the chunk (the Lead-k baseline of extractive summarisation).
func LeadSummary(msgs []chat.Message) string {
	var b strings.Builder
	n := 0
	for _, m := range msgs {
		if m.Text == "" {
			continue
		}
		if n > 0 {
			b.WriteString(" / ")
			n += 3
		}
		b.WriteString(m.Text)
		n += utf8.RuneCountInString(m.Text)
		if n >= LeadSummaryMinRunes {
			break
		}
	}
	return represent.FirstRunes(b.String(), LeadSummaryMaxRunes)
}

// WriteDir writes the built folder into dir (datafolder.WriteFiles).
func (b *Built) WriteDir(dir string) error { return datafolder.WriteFiles(dir, b.Files) }

// Names lists Files' paths in byte order.
func (b *Built) Names() []string { return datafolder.FileNames(b.Files) }

// exportMessage is one message of a JSON-by-date export (spec §2).
type exportMessage struct {
	Time   string `json:"time"`
	Sender string `json:"sender"`
	Type   string `json:"type"`
	Text   string `json:"text"`
}

// exportJSON renders turns (in time order) as a JSON-by-date export, one
// date per line; a date met again after another is written again where it
// stands (the reader reads repeated keys in place).
func exportJSON(turns []Turn) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i := 0; i < len(turns); {
		date := turns[i].At.Format(chat.DateLayout)
		j := i
		var day []exportMessage
		for ; j < len(turns) && turns[j].At.Format(chat.DateLayout) == date; j++ {
			if j > i && turns[j].At.Before(turns[j-1].At) {
				return nil, fmt.Errorf("turn %s is earlier than the turn before it", turns[j].Key)
			}
			day = append(day, exportMessage{turns[j].At.Format("15:04:05"), turns[j].Sender, chat.TextType, turns[j].Text})
		}
		line, err := jsonl.Marshal(day)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "%q: %s", date, line)
		i = j
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

func encodeLines[T any](rows []T) ([]byte, error) {
	var b bytes.Buffer
	if err := jsonl.WriteAll(&b, rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// hashOriginal reads a whole input file and records its sha256.
func hashOriginal(path string) ([]byte, Original, error) {
	data, err := regularfile.ReadFile(path)
	if err != nil {
		return nil, Original{}, err
	}
	sum := sha256.Sum256(data)
	return data, Original{File: filepath.Base(path), SHA256: hex.EncodeToString(sum[:]), Bytes: int64(len(data))}, nil
}

// decodeErrorOffset is the byte offset in data where a json.Decoder reading
// data from its start failed with err: a syntax error's own offset, the end of
// the last non-blank byte for a truncated value, else start (the value's
// first byte).
func decodeErrorOffset(data []byte, start int64, err error) int64 {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return se.Offset
	case errors.Is(err, io.ErrUnexpectedEOF):
		return int64(len(bytes.TrimRight(data, " \t\r\n")))
	}
	return start
}

// lineAt is the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// Split returns one folder per user: the sources that user is in and the
// questions (and no-answer questions) asked of them. noAnswerUser names the
// user of each no-answer question, in NoAnswer order.
func (f *Folder) Split(noAnswerUser []string) []*Folder {
	var out []*Folder
	for _, u := range f.Info.Users {
		sub := &Folder{Info: f.Info, SessionSummary: f.SessionSummary}
		sub.Info.Users = []string{u}
		sub.Info.Dropped, sub.Info.UsersWithoutFolder = nil, nil
		for _, s := range f.Sources {
			if slices.Contains(s.Users, u) {
				sub.Sources = append(sub.Sources, s)
			}
		}
		for _, q := range f.Questions {
			if q.User == u {
				sub.Questions = append(sub.Questions, q)
			}
		}
		for i, q := range f.NoAnswer {
			if i < len(noAnswerUser) && noAnswerUser[i] == u {
				sub.NoAnswer = append(sub.NoAnswer, q)
			}
		}
		for _, q := range f.Native {
			if q.User == u {
				sub.Native = append(sub.Native, q)
			}
		}
		out = append(out, sub)
	}
	return out
}

// Write builds the folder into dir and, with perUser, each user's folder
// into dir/users/USER (not for a user without retrieval questions: see
// Info.UsersWithoutFolder). It returns the pooled build. dir is new, empty, or
// the folder of an earlier conversion (it holds datafolder.DatasetFile), whose
// datafolder.SourcesDir and datafolder.UsersDir are removed first so that no
// source or user of the earlier
// run stays behind; any other non-empty dir is refused and left untouched.
func (f *Folder) Write(dir string, perUser bool, noAnswerUser []string) (*Built, error) {
	if perUser {
		f.Info.UsersWithoutFolder = nil
		for _, u := range f.Info.Users {
			if !slices.ContainsFunc(f.Questions, func(q Question) bool { return q.User == u }) {
				f.Info.UsersWithoutFolder = append(f.Info.UsersWithoutFolder, u)
			}
		}
	}
	b, err := f.Build()
	if err != nil {
		return nil, err
	}
	if err := clearEarlierConversion(dir); err != nil {
		return nil, err
	}
	if err := b.WriteDir(dir); err != nil {
		return nil, err
	}
	if !perUser {
		return b, nil
	}
	for _, sub := range f.Split(noAnswerUser) {
		if slices.Contains(f.Info.UsersWithoutFolder, sub.Info.Users[0]) {
			continue
		}
		sb, err := sub.Build()
		if err != nil {
			return nil, err
		}
		if err := sb.WriteDir(filepath.Join(dir, datafolder.UsersDir, safeName(sub.Info.Users[0]))); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// clearEarlierConversion prepares dir for Write (see there).
func clearEarlierConversion(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, datafolder.DatasetFile)); err != nil {
		return fmt.Errorf("datasets: %s is not empty and holds no %s of an earlier conversion: convert into a new or empty folder", dir, datafolder.DatasetFile)
	}
	for _, sub := range []string{datafolder.SourcesDir, datafolder.UsersDir} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			return err
		}
	}
	return nil
}

// safeName keeps letters, digits, '-', '_' and '.' of s and replaces every
// other rune by '_', for file names.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

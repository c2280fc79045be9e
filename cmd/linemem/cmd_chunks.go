package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
)

func init() {
	register(&command{
		name:    "chunks",
		summary: "list the stored chunks (--jsonl: one JSON object per chunk)",
		usage: `[--jsonl]

--jsonl prints one line per chunk, ordered by source and chunk_index, with the
fields chunk_id, source, chunk_index, start_at, end_at, message_ids, raw_text
in that order, written as Python's json.dumps(ensure_ascii=False) writes them.
Without it, one tab-separated line per chunk: chunk_id, source, chunk_index,
start_at, end_at, message count, raw_text characters.`,
		run: runChunks,
	})
}

func runChunks(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	asJSONL := fset.Bool("jsonl", false, "print JSON lines")
	if err := parseFlagsOnly(fset, args); err != nil {
		return err
	}
	st, err := openReadOnlyStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	chunks, err := st.Chunks()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(env.stdout)
	for _, ch := range chunks {
		if *asJSONL {
			writeChunkJSON(w, ch)
		} else {
			fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%d\t%d", ch.ID, ch.Source, ch.Index, ch.StartAt, ch.EndAt,
				len(ch.MessageIDs), utf8.RuneCountInString(ch.RawText))
		}
		w.WriteByte('\n')
	}
	return w.Flush()
}

// writeChunkJSON writes c as one JSON object without a newline, keys in spec
// §12 order, separated by ", " and ": ".
func writeChunkJSON(w *bufio.Writer, c chat.Chunk) {
	w.WriteString(`{"chunk_id": `)
	writeJSONString(w, c.ID)
	w.WriteString(`, "source": `)
	writeJSONString(w, c.Source)
	w.WriteString(`, "chunk_index": `)
	w.WriteString(strconv.Itoa(c.Index))
	w.WriteString(`, "start_at": `)
	writeJSONString(w, c.StartAt)
	w.WriteString(`, "end_at": `)
	writeJSONString(w, c.EndAt)
	w.WriteString(`, "message_ids": [`)
	for i, id := range c.MessageIDs {
		if i > 0 {
			w.WriteString(", ")
		}
		writeJSONString(w, id)
	}
	w.WriteString(`], "raw_text": `)
	writeJSONString(w, c.RawText)
	w.WriteByte('}')
}

// writeJSONString quotes s as JSON the way Python's json.dumps does with
// ensure_ascii=False: '"' and '\' escaped, \n \r \t \b \f by name, other
// control characters below U+0020 as \u00XX, everything else verbatim, but
// for a byte that is not part of valid UTF-8, which is written as U+FFFD (as
// encoding/json writes it), so the output is always valid UTF-8.
func writeJSONString(w io.ByteWriter, s string) {
	const hexDigits = "0123456789abcdef"
	w.WriteByte('"')
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch b {
		case '"':
			w.WriteByte('\\')
			w.WriteByte('"')
		case '\\':
			w.WriteByte('\\')
			w.WriteByte('\\')
		case '\n':
			w.WriteByte('\\')
			w.WriteByte('n')
		case '\r':
			w.WriteByte('\\')
			w.WriteByte('r')
		case '\t':
			w.WriteByte('\\')
			w.WriteByte('t')
		case '\b':
			w.WriteByte('\\')
			w.WriteByte('b')
		case '\f':
			w.WriteByte('\\')
			w.WriteByte('f')
		default:
			if b < 0x20 {
				for _, c := range []byte{'\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf]} {
					w.WriteByte(c)
				}
				continue
			}
			if b < utf8.RuneSelf {
				w.WriteByte(b)
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			valid := s[i : i+size]
			if r == utf8.RuneError && size == 1 {
				valid = "\uFFFD"
			}
			for j := range len(valid) {
				w.WriteByte(valid[j])
			}
			i += size - 1
		}
	}
	w.WriteByte('"')
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
)

func TestChunksMissingDatabase(t *testing.T) {
	code, stdout, stderr := ingestSideRun(t, "chunks", "--jsonl", "--db", ingestSideDB(t))
	if code != 1 || stdout != "" || !strings.Contains(stderr, "no such database") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestChunksListing(t *testing.T) {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, conformance.Path("sources"))
	_, chunks, _ := conformanceCounts(t)
	jsonl := ingestSideMust(t, "chunks", "--jsonl", "--db", db)
	plain := ingestSideMust(t, "chunks", "--db", db)
	if n := strings.Count(jsonl, "\n"); n != chunks {
		t.Errorf("--jsonl printed %d lines, want %d", n, chunks)
	}
	if n := strings.Count(plain, "\n"); n != chunks {
		t.Errorf("plain listing printed %d lines, want %d", n, chunks)
	}
	first := strings.SplitN(jsonl, "\n", 2)[0]
	keys := []string{`{"chunk_id": `, `, "source": `, `, "chunk_index": `, `, "start_at": `, `, "end_at": `, `, "message_ids": [`, `], "raw_text": `}
	at := 0
	for _, k := range keys {
		i := strings.Index(first[at:], k)
		if i < 0 {
			t.Fatalf("field %q missing or out of order in %s", k, first)
		}
		at += i + len(k)
	}
}

func TestWriteJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "line\nbreak\r\ttab\b\f", "\x00\x1f\x7f", "日本語 😂 \u2028", "<a href='x'>&</a>"} {
		t.Run(s, func(t *testing.T) {
			var buf bytes.Buffer
			w := bufio.NewWriter(&buf)
			writeJSONString(w, s)
			w.Flush()
			var back string
			if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back != s {
				t.Errorf("%s decodes to %q, %v; want %q", buf.String(), back, err, s)
			}
			if strings.Contains(s, "日本語") && !strings.Contains(buf.String(), "日本語") {
				t.Errorf("non-ASCII escaped: %s", buf.String())
			}
		})
	}
}

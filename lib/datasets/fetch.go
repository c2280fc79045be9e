package datasets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Pinned commits of the public data sets (the ones ../shared/datasets
// holds; see its README).
const (
	LoCoMoCommit          = "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376"
	RealPersonaChatCommit = "28d0b6b3865b29cabc26c230a2db37cdf315e937"
)

// PinnedFile is one file a fetch must produce, with its sha256.
type PinnedFile struct {
	Path   string // relative to the fetch folder, slash-separated
	SHA256 string
}

// Pinned lists, per data set, the files `linemem datasets fetch` writes and
// their sha256, the same as ../shared/datasets. For RealPersonaChat the
// dialogues are re-assembled as that folder holds them: the 13,583
// real_persona_chat/dialogues/NNNNN.json files of the archive in file-name
// order, each compacted (encoding/json.Compact: white space removed, keys
// and values unchanged) onto one line; the sha256 is that of the
// uncompressed JSONL (the gzip bytes depend on the compressor), written as
// dialogues.jsonl.gz.
var Pinned = map[string][]PinnedFile{
	LoCoMoName: {
		{"locomo/locomo10.json", "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"},
		{"locomo/LICENSE.txt", "41003d4a74749c0220e33dd415042164b5a1093ed401f36277234f772d22d3d0"},
	},
	RealPersonaChatName: {
		{"real-persona-chat/dialogues.jsonl.gz", "c53ad73985b835911d4e2428ca3e6915f4eb2476f7d6186e7f9c9e9ae2a30c0e"},
		{"real-persona-chat/interlocutors.json", "f62020d0fb186b127ad07b0ca00b324019898aad23a1932fafb9eedf61e001b5"},
		{"real-persona-chat/LICENSE", "23ee78c8bae49cf08ea2f0c84945c66b987ebe4520881fb51b3dad4fb43d07c2"},
		{"real-persona-chat/VERSION", "59854984853104df5c353e2f681a15fc7924742f9a2e468c29af248dce45ce03"},
	},
}

// FetchSource says where a data set is downloaded from.
type FetchSource struct {
	// Raw maps a pinned path to its URL (files fetched one by one).
	Raw map[string]string
	// Archive is a .tar.gz of the repository at the pinned commit; Members
	// maps a pinned path to the member it comes from ("" marks the
	// assembled dialogues).
	Archive string
	Members map[string]string
}

// Sources are the pinned download locations.
var Sources = map[string]FetchSource{
	LoCoMoName: {Raw: map[string]string{
		"locomo/locomo10.json": "https://raw.githubusercontent.com/snap-research/LoCoMo/" + LoCoMoCommit + "/data/locomo10.json",
		"locomo/LICENSE.txt":   "https://raw.githubusercontent.com/snap-research/LoCoMo/" + LoCoMoCommit + "/LICENSE.txt",
	}},
	RealPersonaChatName: {
		Archive: "https://github.com/nu-dialogue/real-persona-chat/archive/" + RealPersonaChatCommit + ".tar.gz",
		Members: map[string]string{
			"real-persona-chat/dialogues.jsonl.gz": "",
			"real-persona-chat/interlocutors.json": "real_persona_chat/interlocutors.json",
			"real-persona-chat/LICENSE":            "LICENSE",
			"real-persona-chat/VERSION":            "VERSION",
		},
	},
}

// FetchTimeout bounds one download.
const FetchTimeout = 10 * time.Minute

// Fetch downloads data set name into dir (dir/locomo/…, dir/real-persona-chat/…)
// and checks every file against Pinned before it is put in place; a file
// that does not match is refused and nothing of it is left. With no network
// the error names the URL it could not reach.
func Fetch(ctx context.Context, client *http.Client, name, dir string) ([]string, error) {
	src, ok := Sources[name]
	if !ok {
		return nil, fmt.Errorf("datasets: fetch %q: expected %s or %s", name, LoCoMoName, RealPersonaChatName)
	}
	files := map[string][]byte{}
	if src.Archive != "" {
		body, err := download(ctx, client, src.Archive)
		if err != nil {
			return nil, err
		}
		if files, err = fromArchive(body, src.Members); err != nil {
			return nil, fmt.Errorf("datasets: %s: %w", src.Archive, err)
		}
	}
	for p, url := range src.Raw {
		body, err := download(ctx, client, url)
		if err != nil {
			return nil, err
		}
		files[p] = body
	}
	var written []string
	for _, pf := range Pinned[name] {
		data, ok := files[pf.Path]
		if !ok {
			return written, fmt.Errorf("datasets: fetch %s: %s was not in the download", name, pf.Path)
		}
		check := data
		if strings.HasSuffix(pf.Path, ".gz") {
			var err error
			if check, err = gunzip(data); err != nil {
				return written, fmt.Errorf("datasets: fetch %s: %s: %w", name, pf.Path, err)
			}
		}
		sum := sha256.Sum256(check)
		if got := hex.EncodeToString(sum[:]); got != pf.SHA256 {
			return written, fmt.Errorf("datasets: fetch %s: %s has sha256 %s, expected %s (pinned commit of lib/datasets); nothing written for it", name, pf.Path, got, pf.SHA256)
		}
		out := filepath.Join(dir, filepath.FromSlash(pf.Path))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return written, err
		}
		written = append(written, out)
	}
	return written, nil
}

func download(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("datasets: cannot download %s (offline? copy the files by hand into the layout of docs/reproducing.md, \"Public conversation data sets\"): %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("datasets: %s: HTTP %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// fromArchive reads the members of a repository .tar.gz (paths below its
// top folder) and assembles the RealPersonaChat dialogues.
func fromArchive(body []byte, members map[string]string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	want := map[string]string{}
	for p, m := range members {
		if m != "" {
			want[m] = p
		}
	}
	files := map[string][]byte{}
	dialogues := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		_, rel, ok := strings.Cut(h.Name, "/")
		if !ok {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		if p, ok := want[rel]; ok {
			files[p] = data
		}
		if path.Dir(rel) == "real_persona_chat/dialogues" && strings.HasSuffix(rel, ".json") {
			dialogues[path.Base(rel)] = data
		}
	}
	for p, m := range members {
		if m != "" {
			continue
		}
		if len(dialogues) == 0 {
			return nil, fmt.Errorf("no real_persona_chat/dialogues/*.json in the archive")
		}
		var jsonl bytes.Buffer
		for _, n := range slices.Sorted(maps.Keys(dialogues)) {
			if err := json.Compact(&jsonl, dialogues[n]); err != nil {
				return nil, fmt.Errorf("real_persona_chat/dialogues/%s: %w", n, err)
			}
			jsonl.WriteByte('\n')
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(jsonl.Bytes())
		if err := zw.Close(); err != nil {
			return nil, err
		}
		files[p] = gz.Bytes()
	}
	return files, nil
}

func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

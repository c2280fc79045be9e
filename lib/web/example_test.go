package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/web"
)

// Serve the web app with httptest, search it and print the page's status,
// title and the first marked text.
func Example() {
	st, err := store.Open(":memory:")
	if err != nil {
		panic(err)
	}
	defer st.Close()
	export := filepath.Join("..", "..", "testdata", "history", "[LINE] 家族のトーク.txt")
	if _, err := ingest.File(st, export, chunking.DefaultOptions()); err != nil {
		panic(err)
	}
	srv, err := web.New(web.Options{Store: st})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	resp, err := http.Get(ts.URL + "/search?q=" + url.QueryEscape("充電やばい"))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	fmt.Println(regexp.MustCompile(`<title>(.*?)</title>`).FindStringSubmatch(string(page))[1])
	fmt.Println(regexp.MustCompile(`<mark>(.*?)</mark>`).FindStringSubmatch(string(page))[1])
	// Output:
	// 200 OK
	// Search · linemem
	// 充電やばい
}

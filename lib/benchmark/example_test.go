package benchmark_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/linemem/linemem/lib/benchmark"
	"github.com/linemem/linemem/lib/datafolder"
)

// The per-user folders of a converted data set are its users/ subfolders,
// in name order; a file there is not a user.
func ExampleUserDirs() {
	data, _ := os.MkdirTemp("", "converted")
	defer os.RemoveAll(data)
	for _, user := range []string{"conv-30", "conv-26"} {
		os.MkdirAll(filepath.Join(data, datafolder.UsersDir, user), 0o700)
	}
	os.WriteFile(filepath.Join(data, datafolder.UsersDir, "notes.txt"), nil, 0o600)
	dirs, err := benchmark.UserDirs(data)
	for _, d := range dirs {
		fmt.Println(filepath.Base(d))
	}
	_, err2 := benchmark.UserDirs(filepath.Join(data, "missing"))
	fmt.Println(err, err2 != nil)
	// Output:
	// conv-26
	// conv-30
	// <nil> true
}

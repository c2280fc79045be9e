package reproduce_test

import (
	"fmt"

	"github.com/linemem/linemem/lib/reproduce"
)

// The registry lists every artefact `linemem reproduce` writes, in the
// order it writes them, with the shared state each needs; a slug is what
// `--only` and reproduce.Build take.
func ExampleArtefacts() {
	for _, a := range reproduce.Artefacts[:10] {
		fmt.Printf("%-20s paper=%-5t needs: %s\n", a.Slug, a.Paper, a.Needs)
	}
	_, err := reproduce.Lookup("table2")
	fmt.Println(err != nil)
	// Output:
	// table1               paper=true  needs: none
	// table3               paper=true  needs: singles
	// table4               paper=true  needs: sweep
	// table5               paper=true  needs: singles, sweep
	// table6               paper=true  needs: sweep
	// table7               paper=true  needs: sweep
	// table8               paper=true  needs: sweep
	// table9               paper=true  needs: sweep
	// ceiling_candidates   paper=true  needs: sweep
	// figure1              paper=true  needs: singles
	// true
}

//go:build !amd64 || purego

package dense

// haveKernel is false: there is no vector kernel for this architecture, so
// the float32 pass uses gonum's blas32.
var haveKernel = false

func dot4x3(q []float32, qstride int, r0, r1, r2 []float32, d8 int, out *[12]float32) {
	panic("dense: no vector kernel on this architecture")
}

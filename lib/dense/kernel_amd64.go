//go:build !purego

package dense

import "golang.org/x/sys/cpu"

// haveKernel reports whether this CPU runs dot4x3AVX2 (AVX2 and FMA).
var haveKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dot4x3AVX2 is implemented in kernel_amd64.s.
//
//go:noescape
func dot4x3AVX2(q *float32, qstride int, r0, r1, r2 *float32, d int, out *[12]float32)

// dot4x3 sets out[3i+j] to the float32 inner product of the first d8
// components of query i (q[i·qstride:]) and row j (r0, r1, r2), for i < 4
// and j < 3; d8 is a multiple of 8 and every slice holds at least d8 of
// them.
func dot4x3(q []float32, qstride int, r0, r1, r2 []float32, d8 int, out *[12]float32) {
	if d8 == 0 {
		*out = [12]float32{}
		return
	}
	_ = q[3*qstride+d8-1]
	_, _, _ = r0[d8-1], r1[d8-1], r2[d8-1]
	dot4x3AVX2(&q[0], qstride, &r0[0], &r1[0], &r2[0], d8, out)
}

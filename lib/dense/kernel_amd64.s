//go:build !purego

#include "textflag.h"

// func dot4x3AVX2(q *float32, qstride int, r0, r1, r2 *float32, d int, out *[12]float32)
//
// out[3i+j] = Σ_{t<d} q[i·qstride+t]·rj[t] for i < 4, j < 3, with d a
// multiple of 8 and qstride in elements. Eight lanes accumulate with fused
// multiply-adds, then each accumulator's lanes are summed.
TEXT ·dot4x3AVX2(SB), NOSPLIT, $0-56
	MOVQ q+0(FP), R8
	MOVQ qstride+8(FP), BX
	SHLQ $2, BX
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	MOVQ r0+16(FP), DI
	MOVQ r1+24(FP), R12
	MOVQ r2+32(FP), R13
	MOVQ d+40(FP), CX
	SHLQ $2, CX
	MOVQ out+48(FP), DX

	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15
	XORQ   AX, AX
	CMPQ   AX, CX
	JGE    reduce

loop:
	VMOVUPS     (DI)(AX*1), Y0
	VMOVUPS     (R12)(AX*1), Y1
	VMOVUPS     (R13)(AX*1), Y2
	VMOVUPS     (R8)(AX*1), Y3
	VFMADD231PS Y3, Y0, Y4
	VFMADD231PS Y3, Y1, Y5
	VFMADD231PS Y3, Y2, Y6
	VMOVUPS     (R9)(AX*1), Y3
	VFMADD231PS Y3, Y0, Y7
	VFMADD231PS Y3, Y1, Y8
	VFMADD231PS Y3, Y2, Y9
	VMOVUPS     (R10)(AX*1), Y3
	VFMADD231PS Y3, Y0, Y10
	VFMADD231PS Y3, Y1, Y11
	VFMADD231PS Y3, Y2, Y12
	VMOVUPS     (R11)(AX*1), Y3
	VFMADD231PS Y3, Y0, Y13
	VFMADD231PS Y3, Y1, Y14
	VFMADD231PS Y3, Y2, Y15
	ADDQ        $32, AX
	CMPQ        AX, CX
	JLT         loop

reduce:
#define HSUM(acc, xacc, off) \
	VEXTRACTF128 $1, acc, X0; \
	VADDPS       X0, xacc, X0; \
	VHADDPS      X0, X0, X0; \
	VHADDPS      X0, X0, X0; \
	VMOVSS       X0, off(DX)

	HSUM(Y4, X4, 0)
	HSUM(Y5, X5, 4)
	HSUM(Y6, X6, 8)
	HSUM(Y7, X7, 12)
	HSUM(Y8, X8, 16)
	HSUM(Y9, X9, 20)
	HSUM(Y10, X10, 24)
	HSUM(Y11, X11, 28)
	HSUM(Y12, X12, 32)
	HSUM(Y13, X13, 36)
	HSUM(Y14, X14, 40)
	HSUM(Y15, X15, 44)
	VZEROUPPER
	RET

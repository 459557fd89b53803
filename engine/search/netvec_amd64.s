//go:build amd64 && !purego

#include "textflag.h"

// func addRowAVX2(sum, row *float32, n int)
TEXT ·addRowAVX2(SB), NOSPLIT, $0-24
	MOVQ sum+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX

addloop:
	VMOVUPS (DI), Y0
	VADDPS  (SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	DECQ    CX
	JNZ     addloop
	VZEROUPPER
	RET

// func subRowAVX2(sum, row *float32, n int)
TEXT ·subRowAVX2(SB), NOSPLIT, $0-24
	MOVQ sum+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX

subloop:
	VMOVUPS (DI), Y0
	VSUBPS  (SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	DECQ    CX
	JNZ     subloop
	VZEROUPPER
	RET

DATA netone<>+0(SB)/4, $0x3f800000
GLOBL netone<>(SB), RODATA|NOPTR, $4

// func clipDotAVX2(x, w *float32, n int) float32
//
// Lane l sums w[i]·clip(x[i]) for i ≡ l (mod 8), multiplying and adding
// in two roundings (no fused multiply-add); the lanes are then combined
// as ((a0+a4)+(a2+a6)) + ((a1+a5)+(a3+a7)).
TEXT ·clipDotAVX2(SB), NOSPLIT, $0-28
	MOVQ         x+0(FP), SI
	MOVQ         w+8(FP), DI
	MOVQ         n+16(FP), CX
	SHRQ         $3, CX
	VXORPS       Y0, Y0, Y0
	VXORPS       Y1, Y1, Y1
	VBROADCASTSS netone<>(SB), Y2

dotloop:
	VMOVUPS (SI), Y3
	VMAXPS  Y1, Y3, Y3
	VMINPS  Y2, Y3, Y3
	VMULPS  (DI), Y3, Y3
	VADDPS  Y3, Y0, Y0
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     dotloop

	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+24(FP)
	RET

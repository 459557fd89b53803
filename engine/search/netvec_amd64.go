//go:build amd64 && !purego

package search

import "golang.org/x/sys/cpu"

// netVector tells whether the network's loops run on vector instructions
// (AVX2); without it they run in Go with the same results.
var netVector = cpu.X86.HasAVX2

// Implemented in netvec_amd64.s, for n a positive multiple of 8.
//
//go:noescape
func addRowAVX2(sum, row *float32, n int)

//go:noescape
func subRowAVX2(sum, row *float32, n int)

//go:noescape
func clipDotAVX2(x, w *float32, n int) float32

// addRow8, subRow8: the whole groups of eight elements of sum, the number
// done returned. clipDot8: clipDot of whole groups of eight.
func addRow8(sum, row []float32) int {
	n := len(sum) &^ 7
	if !netVector || n == 0 {
		return addRow8Go(sum, row)
	}
	_ = row[n-1]
	addRowAVX2(&sum[0], &row[0], n)
	return n
}

func subRow8(sum, row []float32) int {
	n := len(sum) &^ 7
	if !netVector || n == 0 {
		return subRow8Go(sum, row)
	}
	_ = row[n-1]
	subRowAVX2(&sum[0], &row[0], n)
	return n
}

func clipDot8(x, w []float32) float32 {
	if !netVector || len(x) == 0 {
		return clipDot8Go(x, w)
	}
	_ = w[len(x)-1]
	return clipDotAVX2(&x[0], &w[0], len(x))
}

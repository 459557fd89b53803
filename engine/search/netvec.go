package search

// The network's inner loops: adding a first-layer row to a running sum,
// taking one away, and the output unit's sum of clipped units times their
// weights. On amd64 with AVX2 they run eight lanes at a time
// (netvec_amd64.s); elsewhere the same arithmetic runs in Go. Both give
// the same bits: the element-wise sums are exact per element, and
// clipDot adds in eight lanes combined in one fixed order, in either.

// addRow adds row to sum, element by element; row is at least as long.
func addRow(sum, row []float32) {
	row = row[:len(sum)]
	j := addRow8(sum, row)
	for ; j < len(sum); j++ {
		sum[j] += row[j]
	}
}

// subRow takes row from sum, element by element; row is at least as long.
func subRow(sum, row []float32) {
	row = row[:len(sum)]
	j := subRow8(sum, row)
	for ; j < len(sum); j++ {
		sum[j] -= row[j]
	}
}

// clip is a hidden unit's activation: its sum held to [0, 1]. Written as
// the vector instructions compare, so that both give the same bits.
func clip(x float32) float32 {
	if !(x > 0) {
		x = 0
	}
	if !(x < 1) {
		x = 1
	}
	return x
}

// clipDot is the sum over j of w[j]·clip(x[j]); w is at least as long as
// x. Whole groups of eight go through eight lanes (clipDot8), the rest
// one by one after them.
func clipDot(x, w []float32) float32 {
	w = w[:len(x)]
	n := len(x) &^ 7
	var v float32
	if n > 0 {
		v = clipDot8(x[:n], w[:n])
	}
	for j := n; j < len(x); j++ {
		v += float32(w[j] * clip(x[j]))
	}
	return v
}

// clipDot8Go is clipDot8 in Go: lane l adds the products of the elements
// l, l+8, l+16, …; the lanes are then combined as the vector code combines
// them, halves first. len(x) is a multiple of 8 and len(w) ≥ len(x).
func clipDot8Go(x, w []float32) float32 {
	var a [8]float32
	for i := 0; i+8 <= len(x); i += 8 {
		xs, ws := (*[8]float32)(x[i:i+8]), (*[8]float32)(w[i:i+8])
		for l := range a {
			a[l] += float32(ws[l] * clip(xs[l]))
		}
	}
	return ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]))
}

// addRow8Go and subRow8Go are addRow8 and subRow8 in Go.
func addRow8Go(sum, row []float32) int {
	n := len(sum) &^ 7
	for i := 0; i < n; i += 8 {
		s, r := (*[8]float32)(sum[i:i+8]), (*[8]float32)(row[i:i+8])
		for l := range s {
			s[l] += r[l]
		}
	}
	return n
}

func subRow8Go(sum, row []float32) int {
	n := len(sum) &^ 7
	for i := 0; i < n; i += 8 {
		s, r := (*[8]float32)(sum[i:i+8]), (*[8]float32)(row[i:i+8])
		for l := range s {
			s[l] -= r[l]
		}
	}
	return n
}

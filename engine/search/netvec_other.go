//go:build !amd64 || purego

package search

// netVector tells whether the network's loops run on vector instructions.
const netVector = false

// addRow8, subRow8: the whole groups of eight elements of sum, the number
// done returned. clipDot8: clipDot of whole groups of eight.
func addRow8(sum, row []float32) int  { return addRow8Go(sum, row) }
func subRow8(sum, row []float32) int  { return subRow8Go(sum, row) }
func clipDot8(x, w []float32) float32 { return clipDot8Go(x, w) }

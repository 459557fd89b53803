//go:build race

package puzzle

// raceOn: the race detector slows the exhaustive checks tenfold; under
// it the stock is checked in part (the full check runs without -race).
const raceOn = true

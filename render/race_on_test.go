//go:build race

package render

// raceOn: the race detector slows pixel loops twentyfold; tests that only
// check pixels draw a sample of boards under it.
const raceOn = true

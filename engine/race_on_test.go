//go:build race

package engine

// raceEnabled lets deep perft tests skip themselves under the race
// detector, which slows move generation tenfold; .ci/run runs them again
// without it.
const raceEnabled = true

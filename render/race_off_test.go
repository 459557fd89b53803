//go:build !race

package render

const raceOn = false

package bot

// afterGame is the service's state for what comes around games: the
// thinking lines to edit, the review workers, the followed games.
type afterGame struct {
	thinking thinkingLines
}

package bot

// Tap-to-move: platforms without a clickable board (Telegram) let a player
// build a move from buttons — a piece, then its destination, then, when
// one destination stands for several moves, how the move ends (a
// promotion piece, or in Heisenberg chess the replacement of an observed
// move). The adapter keeps the path of steps in its buttons and asks
// again after every press, so the bot holds no per-player state.

// TapMenu is one step of tap-to-move.
type TapMenu struct {
	Game string
	// Ply is how many half-moves were played when the menu was made; a
	// press on a menu made for another ply is refused as out of date.
	Ply int
	// Prompt says what to choose ("g3 · your move: which piece?").
	Prompt string
	// Choices are the buttons; pressing one appends its Step to the path.
	Choices []TapChoice
	// Move is set, in canonical notation, when the path names exactly one
	// legal move: the adapter then plays it with a "move" command whose
	// Args are {"game": Game, "move": Move}.
	Move string
}

// TapChoice is one button of a tap-to-move step.
type TapChoice struct {
	Label string // "Ng1", "e4", "xd5", "=Q", "as bishop to b5"
	Step  string // short and free of "|" (cell names, "Q", ...)
}

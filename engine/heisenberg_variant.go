package engine

func init() {
	register("heisenberg", newHeisenberg)
}

func newHeisenberg() *Variant {
	g := newEightByEight()
	return &Variant{
		ID:          "heisenberg",
		Name:        "Heisenberg chess",
		Short:       "8×8 chess where a piece seen by the enemy on its way changes its speed or its position.",
		Geo:         g,
		Start:       orthodoxStart,
		Castling:    orthodoxCastling(g),
		FEN:         true,
		Observation: true,
		Rules:       heisenbergRules,
	}
}

const heisenbergRules = "Heisenberg chess (João Pedro Neto, 2000): FIDE chess on the 8×8 board, but a moving piece that is seen by the enemy cannot complete its move.\n" +
	"• A cell is *watched* by an enemy piece if that piece could capture there (rays up to and including the first piece of either colour, so a defended piece is watched by its defender; pinned pieces and the king watch too).\n" +
	"• A move's path: a queen, rook or bishop passes every cell up to its destination; a knight only passes its *forward cell*, one step along the longer leg of its leap (b1-c3: b2; b1-d2: c1); a pawn passes its destination (a double step: the skipped cell, then the destination; en passant: the skipped cell). King moves and castling are never observed.\n" +
	"• If a cell of the path is watched, the first such cell S and its number N of watchers decide. You then choose one of:\n" +
	"  – *Change of speed* (queen, rook, bishop or knight, when S is empty): the piece continues from S as the next piece of queen→rook→bishop→knight→pawn (as a pawn: one step forward, or one diagonal capture forward). It may not stop on S, on its starting cell or on the enemy king, and is not observed again.\n" +
	"  – *Change of position* (any piece but the king): the piece reappears on a cell at exactly distance N from S (distance = the larger of the file and rank differences), not its starting cell, not a cell it could reach by an ordinary move, and not the enemy king; an enemy piece there is captured. A pawn reaching its last rank promotes; a pawn may even land on its first rank.\n" +
	"• You type the move you actually play (e.g. c3-f7); the bot lists your choices when an intended move is observed.\n" +
	"• Only an unobserved double step allows en passant. Check and mate are the ordinary ones: a move may not leave your king attacked.\n" +
	"• Rule book decisions: the seed's knight diagram draws the reappearance ring around the knight itself, but its text says distance N from S, which we follow; and the reappearing piece may capture an enemy piece, as the seed's caption allows, although its text says \"empty square\".\n" +
	"• Castling, promotion and draws (threefold repetition, 100 half-moves, bare kings) as in standard chess."

package engine

// Perft counts the leaf nodes of the legal move tree to the given depth
// (RULES §8: draw rules do not stop it).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth+1)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return p.perft(depth, bufs)
}

func (p *Position) perft(depth int, bufs [][]Move) uint64 {
	if depth == 1 {
		return uint64(p.countLegal(bufs[1][:0]))
	}
	ms := p.AppendLegal(bufs[depth][:0])
	bufs[depth] = ms[:0]
	var n uint64
	for _, m := range ms {
		u := p.Make(m)
		n += p.perft(depth-1, bufs)
		p.Unmake(m, u)
	}
	return n
}

// Divide returns the perft count below each legal move.
func (p *Position) Divide(depth int) map[Move]uint64 {
	out := map[Move]uint64{}
	for _, m := range p.LegalMoves() {
		u := p.Make(m)
		out[m] = p.Perft(depth - 1)
		p.Unmake(m, u)
	}
	return out
}

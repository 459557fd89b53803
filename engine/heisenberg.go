package engine

// appendHeisenberg generates the legal moves of Heisenberg chess (RULES §5).
func (p *Position) appendHeisenberg(ms []Move) []Move {
	panic("heisenberg: not yet implemented")
}

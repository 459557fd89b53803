package engine

import "testing"

// The parsers read what users type; none may panic, and what they accept
// must print back to something they accept again.

func FuzzParsePosition(f *testing.F) {
	f.Add("standard", orthodoxStart)
	f.Add("standard", "w Ke1,ke8 - - 0 1")
	f.Add("standard", "b Ke1,ke8,Pe4 - e3 0 1")
	f.Add("standard", "w Ke1,Ke2 - - 0 1")
	f.Add("standard", "w Kz9 - - 0 1")
	f.Add("standard", "w K+e1,ke8 KQkq e3/e4 x y")
	f.Fuzz(func(t *testing.T, id, s string) {
		v, err := GetVariant(id)
		if err != nil {
			v = MustVariant("standard")
		}
		p, err := v.ParsePosition(s)
		if err != nil {
			return
		}
		q, err := v.ParsePosition(p.String())
		if err != nil {
			t.Fatalf("printed position %q does not parse: %v", p.String(), err)
		}
		if q.String() != p.String() {
			t.Fatalf("round trip changed %q to %q", p.String(), q.String())
		}
		_ = p.LegalMoves()
	})
}

func FuzzParseFEN(f *testing.F) {
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	f.Add("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	f.Add("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1")
	f.Add("9/8/8/8/8/8/8/8 w - - 0 1")
	f.Add("8/8/8/8/8/8/8/8/8 w - -")
	f.Fuzz(func(t *testing.T, s string) {
		v := MustVariant("standard")
		p, err := v.ParsePosition(s)
		if err != nil {
			return
		}
		q, err := v.ParsePosition(p.FEN())
		if err != nil {
			t.Fatalf("printed FEN %q does not parse: %v", p.FEN(), err)
		}
		if q.FEN() != p.FEN() {
			t.Fatalf("round trip changed %q to %q", p.FEN(), q.FEN())
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2e4", "e2-e4", "Nf3", "exd5", "Qxh3+", "O-O", "0-0-0", "e8=Q", "e8Q", "a1-a1'", "=", "x", "-", "e2 e4 e5", "1e41e5", "Bb5+!?"} {
		f.Add("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", s)
		f.Add("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", s)
	}
	f.Fuzz(func(t *testing.T, fen, s string) {
		v := MustVariant("standard")
		p, err := v.ParsePosition(fen)
		if err != nil {
			return
		}
		m, err := p.ParseMove(s)
		if err != nil {
			if _, ok := err.(*MoveError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		legal := false
		for _, l := range p.LegalMoves() {
			if l.Same(m) {
				legal = true
			}
		}
		if !legal {
			t.Fatalf("%q parsed to an illegal move %s", s, p.Canonical(m))
		}
		// What we print must read back as the same move.
		if back, err := p.ParseMove(p.SAN(m)); err != nil || !back.Same(m) {
			t.Fatalf("SAN %q of %q does not read back: %v", p.SAN(m), s, err)
		}
	})
}

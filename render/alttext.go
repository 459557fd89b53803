package render

import (
	"fmt"
	"sort"
	"strings"

	"topochess/engine"
)

// AltText describes a position in words (for screen readers and as the
// Discord attachment description): variant, whose move, check, the last
// move and each side's pieces grouped by kind.
func AltText(pos *engine.Position, opt Options) string {
	g := pos.Geo()
	name := func(c int) string {
		if c < 0 || c >= g.N {
			return "?"
		}
		return g.Name(c)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s, %s to move", pos.V.Name, pos.Side)
	check := len(opt.Check) > 0
	if !check {
		check = pos.InCheck()
	}
	if check {
		sb.WriteString(", in check")
	}
	if len(opt.Last) == 2 {
		fmt.Fprintf(&sb, ". Last move %s-%s", name(opt.Last[0]), name(opt.Last[1]))
	}
	if len(opt.Observed) > 0 {
		fmt.Fprintf(&sb, ". Observed on %s", name(opt.Observed[0]))
		if len(opt.Observers) > 0 {
			var ns []string
			for _, c := range opt.Observers {
				ns = append(ns, name(c))
			}
			fmt.Fprintf(&sb, " by %s", strings.Join(ns, ", "))
		}
	}
	for _, side := range []engine.Color{engine.White, engine.Black} {
		groups := map[string][]string{}
		count := 0
		for c, pc := range pos.Board {
			if pc.IsEmpty() || pc.Color() != side {
				continue
			}
			count++
			kind := pc.Kind().Name()
			if pc.Kind() == engine.Pawn && g.PawnDirs {
				if pc.Minus() {
					kind = "pawn moving down"
				} else {
					kind = "pawn moving up"
				}
			}
			groups[kind] = append(groups[kind], g.Name(c))
		}
		fmt.Fprintf(&sb, ". %s (%d):", strings.ToUpper(side.String()[:1])+side.String()[1:], count)
		first := true
		for _, kind := range []string{"king", "queen", "rook", "bishop", "knight", "pawn", "pawn moving up", "pawn moving down"} {
			cells := groups[kind]
			if len(cells) == 0 {
				continue
			}
			sort.Strings(cells)
			if len(cells) > 1 {
				kind = plural(kind)
			}
			if !first {
				sb.WriteString(";")
			}
			first = false
			fmt.Fprintf(&sb, " %s %s", kind, strings.Join(cells, ", "))
		}
		if count == 0 {
			sb.WriteString(" nothing")
		}
	}
	return sb.String() + "."
}

func plural(kind string) string {
	if strings.HasPrefix(kind, "pawn ") {
		return "pawns" + kind[len("pawn"):]
	}
	return kind + "s"
}

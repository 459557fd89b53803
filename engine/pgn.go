package engine

import (
	"fmt"
	"strings"
	"time"
)

// PGNTags are the facts of a game the engine does not know: who played,
// where and when. Empty fields are written as PGN's "unknown" values.
type PGNTags struct {
	Event, Site, Round string
	White, Black       string
	// Date is the day the game started; the zero time is "????.??.??".
	Date time.Time
	// Extra tags are written after the engine's own, in order.
	Extra []PGNTag
}

// PGNTag is one supplemental tag pair.
type PGNTag struct{ Name, Value string }

// pgnLineWidth keeps movetext lines under the 80 columns PGN's export
// format asks for.
const pgnLineWidth = 79

// PGN exports the game: the Seven Tag Roster, the variant, a set-up
// position when the game did not start from the variant's start, a
// Termination tag, and the moves in SAN with move numbers.
//
// Ordinary chess is written so that any PGN reader can load it (FEN and
// SetUp tags for a set-up start, no Variant tag). Other variants carry
// their name in Variant, their id in TopochessVariant and a non-standard
// start in TopochessPosition as a RULES §1.2 position string; their SAN
// uses our cell names (a1′, 1e4, …) which only topochess reads back.
func (g *Game) PGN(tags PGNTags) (string, error) {
	v := g.Variant
	start, err := v.startOf(g.Start)
	if err != nil {
		return "", fmt.Errorf("start position: %w", err)
	}
	pos := start.Clone()
	sans := make([]string, 0, len(g.Moves))
	for i, s := range g.Moves {
		m, err := pos.ParseCanonical(s)
		if err != nil {
			return "", fmt.Errorf("move %d (%s): %w", i+1, s, err)
		}
		sans = append(sans, pos.SAN(m))
		pos.Make(m)
	}

	var sb strings.Builder
	tag := func(name, value string) {
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", name, pgnEscape(value))
	}
	date := "????.??.??"
	if !tags.Date.IsZero() {
		date = tags.Date.UTC().Format("2006.01.02")
	}
	tag("Event", orUnknown(tags.Event))
	tag("Site", orUnknown(tags.Site))
	tag("Date", date)
	tag("Round", orDash(tags.Round))
	tag("White", orUnknown(tags.White))
	tag("Black", orUnknown(tags.Black))
	tag("Result", pgnResult(g.Result))
	atStart := start.String() == v.StartPosition().String()
	if v.ID != "standard" {
		tag("Variant", v.Name)
		tag("TopochessVariant", v.ID)
		if !atStart {
			tag("TopochessPosition", start.String())
		}
	} else if !atStart {
		tag("SetUp", "1")
		tag("FEN", start.FEN())
	}
	tag("PlyCount", fmt.Sprint(len(sans)))
	tag("Termination", pgnTermination(g.Reason))
	for _, t := range tags.Extra {
		tag(t.Name, t.Value)
	}
	sb.WriteByte('\n')

	var tokens []string
	num, black := start.Fullmove, start.Side == Black
	for i, san := range sans {
		switch {
		case !black:
			tokens = append(tokens, fmt.Sprintf("%d.", num))
		case i == 0:
			tokens = append(tokens, fmt.Sprintf("%d...", num))
		}
		tokens = append(tokens, san)
		if black {
			num++
		}
		black = !black
	}
	if g.Over() {
		// The precise reason (threefold repetition, bare kings, …) is
		// richer than Termination's fixed vocabulary.
		tokens = append(tokens, "{"+strings.ReplaceAll(g.Status(), "}", ")")+"}")
	}
	tokens = append(tokens, pgnResult(g.Result))
	line := 0
	for i, t := range tokens {
		if i > 0 {
			if line+1+len(t) > pgnLineWidth {
				sb.WriteByte('\n')
				line = 0
			} else {
				sb.WriteByte(' ')
				line++
			}
		}
		sb.WriteString(t)
		line += len(t)
	}
	sb.WriteString("\n\n")
	return sb.String(), nil
}

// startOf parses a game's start ("" is the variant's start).
func (v *Variant) startOf(s string) (*Position, error) {
	if s == "" {
		return v.StartPosition(), nil
	}
	return v.ParsePosition(s)
}

func pgnResult(r Result) string {
	if r == Ongoing {
		return "*"
	}
	return string(r)
}

// pgnTermination maps our reasons to the values the PGN standard's
// Termination tag defines.
func pgnTermination(r Reason) string {
	switch r {
	case ReasonNone:
		return "unterminated"
	case ReasonTime:
		return "time forfeit"
	case ReasonAborted:
		return "abandoned"
	default:
		return "normal"
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// pgnEscape makes a tag value safe: PGN escapes only quote and backslash,
// and a tag must stay on one line.
func pgnEscape(s string) string {
	s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ", "\t", " ").Replace(s)
	return s
}

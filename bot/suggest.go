package bot

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"topochess/engine"
	"topochess/storage"
)

// Choice is one completion of a partly typed option: Name is what the
// user reads ("Nf3 (g1-f3)"), Value what the command then receives.
type Choice struct {
	Name  string
	Value string
}

// Suggester completes options while the user types them (Discord's
// autocomplete). Adapters use it when their Handler implements it.
type Suggester interface {
	// Suggest returns completions of option (move, cell, game, variant)
	// for what the user has typed so far, best first. cmd names the
	// command being typed and its other options as typed so far. It is
	// cheap, never writes, and returns nil when it has nothing to offer.
	Suggest(cmd Command, option, typed string) []Choice
}

// maxSuggestions is as many as a platform shows (Discord: 25).
const maxSuggestions = 25

var _ Suggester = (*Service)(nil)

// Suggest implements Suggester: the legal moves of the caller's game, the
// cells of their pieces that can move, their games here, the variants.
func (s *Service) Suggest(cmd Command, option, typed string) (out []Choice) {
	defer func() {
		if r := recover(); r != nil { // a suggestion is never worth a crash
			s.log.Error("panic suggesting", "option", option, "panic", fmt.Sprint(r))
			out = nil
		}
	}()
	if len(typed) > s.limits.InputLength || invalidText(cmd) != "" || !validStrings([]string{typed}) {
		return nil
	}
	typed = strings.TrimSpace(typed)
	c := &call{Command: cmd}
	c.args, c.pos = splitArgs(cmd.Args, "")
	switch option {
	case "variant":
		return suggestVariants(typed)
	case "game":
		return s.suggestGames(c, typed)
	case "move":
		return s.suggestMoves(c, typed)
	case "cell":
		return s.suggestCells(c, typed)
	}
	return nil
}

// matchRank orders completions: 0 for a prefix of one of the words, 1 for
// a substring, -1 for no match. Case and dashes do not matter, so "e2e4"
// finds "e2-e4".
func matchRank(typed string, words ...string) int {
	t := squashMove(typed)
	if t == "" {
		return 0
	}
	best := -1
	for _, w := range words {
		w = squashMove(w)
		switch {
		case strings.HasPrefix(w, t):
			return 0
		case strings.Contains(w, t):
			best = 1
		}
	}
	return best
}

func squashMove(s string) string {
	// Captures, checks and separators are left out; Möbius primes are
	// written p as the engine reads them.
	return strings.NewReplacer("-", "", " ", "", "x", "", "+", "", "#", "", "'", "p", "’", "p", "′", "p", "`", "p").Replace(strings.ToLower(s))
}

type ranked struct {
	Choice
	rank int
}

// best keeps the matches, prefix matches first, at most maxSuggestions.
func best(rs []ranked) []Choice {
	slices.SortStableFunc(rs, func(a, b ranked) int { return cmp.Compare(a.rank, b.rank) })
	var out []Choice
	for _, r := range rs {
		if len(out) == maxSuggestions {
			break
		}
		out = append(out, r.Choice)
	}
	return out
}

func suggestVariants(typed string) []Choice {
	var rs []ranked
	for _, id := range engine.Variants() {
		v, err := engine.GetVariant(id)
		if err != nil {
			continue
		}
		if r := matchRank(squash(typed), squash(id), squash(v.Name)); r >= 0 { // "mob" finds Möbius
			rs = append(rs, ranked{Choice{Name: fmt.Sprintf("%s (%s)", v.Name, id), Value: id}, r})
		}
	}
	return best(rs)
}

// candidateGames are the games a command here may be about: the one named,
// or the caller's active games in this channel (for reading commands,
// the channel's games when the caller plays none).
func (s *Service) candidateGames(c *call, spectate bool) []*storage.Game {
	if id := c.arg("game"); id != "" {
		rec, _, err := s.findGame(id)
		if err != nil || rec.Channel != c.Channel {
			return nil
		}
		return []*storage.Game{rec}
	}
	games, err := s.store.ActiveGames(c.User.ID, c.Channel)
	if err == nil && len(games) == 0 && spectate {
		games, err = s.store.ChannelGames(c.Channel)
	}
	if err != nil {
		return nil
	}
	return games
}

func (s *Service) suggestGames(c *call, typed string) []Choice {
	spectate := c.Name == "board" || c.Name == "moves"
	var rs []ranked
	for _, g := range s.candidateGames(c, spectate) {
		label := describe(g, c.User.ID)
		if r := matchRank(typed, g.ID, label); r >= 0 {
			rs = append(rs, ranked{Choice{Name: label, Value: g.ID}, r})
		}
	}
	return best(rs)
}

// position is the caller's game to suggest in: the named one or the only
// one where it is their turn (their only game for reading commands).
func (s *Service) position(c *call, mustMove bool) *engine.Position {
	var found *engine.Position
	for _, rec := range s.candidateGames(c, !mustMove) {
		if !rec.Active() {
			continue
		}
		_, pos, replies := s.snapshot(c, rec.ID)
		if replies != nil {
			continue
		}
		if mustMove && playerOf(rec, pos.Side).ID != c.User.ID {
			continue
		}
		if found != nil {
			return nil // several: the game option has to say which
		}
		found = pos
	}
	return found
}

func (s *Service) suggestMoves(c *call, typed string) []Choice {
	pos := s.position(c, true)
	if pos == nil {
		return nil
	}
	var rs []ranked
	for _, m := range pos.LegalMoves() {
		san, canon := pos.SAN(m), pos.Canonical(m)
		if r := matchRank(typed, san, canon); r >= 0 {
			rs = append(rs, ranked{Choice{Name: fmt.Sprintf("%s (%s)", san, canon), Value: canon}, r})
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return cmp.Compare(a.Name, b.Name) })
	return best(rs)
}

func (s *Service) suggestCells(c *call, typed string) []Choice {
	pos := s.position(c, false)
	if pos == nil {
		return nil
	}
	g := pos.Geo()
	dests := map[int][]string{}
	var from []int
	for _, m := range pos.LegalMoves() {
		f := int(m.From)
		if _, ok := dests[f]; !ok {
			from = append(from, f)
		}
		if name := g.Name(int(m.To)); !slices.Contains(dests[f], name) {
			dests[f] = append(dests[f], name)
		}
	}
	var rs []ranked
	for _, f := range from {
		name := g.Name(f)
		if r := matchRank(typed, name); r >= 0 {
			label := fmt.Sprintf("%s — %s to %s", name, pos.Board[f].Kind().Name(), strings.Join(dests[f], ", "))
			rs = append(rs, ranked{Choice{Name: label, Value: name}, r})
		}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return cmp.Compare(a.Value, b.Value) })
	return best(rs)
}

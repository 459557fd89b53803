package bot

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

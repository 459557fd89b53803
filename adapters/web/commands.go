package web

import (
	"net/http"

	"topochess/bot"
)

// webCommand is one entry of GET /api/commands: what the page suggests
// as the user types "/", made from the bot's command table.
type webCommand struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Usage       string   `json:"usage"`
	Options     []string `json:"options,omitempty"`
}

var commandList = func() []webCommand {
	out := make([]webCommand, 0, len(bot.Commands))
	for _, c := range bot.Commands {
		wc := webCommand{Name: c.Name, Description: c.Description, Usage: c.Usage}
		for _, o := range c.Options {
			if o.Type == bot.OptionUser {
				wc.Options = append(wc.Options, "@"+o.Name)
			} else {
				wc.Options = append(wc.Options, o.Name+":")
			}
		}
		out = append(out, wc)
	}
	return out
}()

func (s *Server) apiCommands(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "max-age=3600")
	writeJSON(w, http.StatusOK, commandList)
}

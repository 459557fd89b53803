package bot

import "unicode/utf8"

// invalidText says which part of a command is not valid UTF-8 ("" when
// all of it is). Such bytes cannot be shown, typed back or matched, so a
// name made of them would leave a challenge or game nobody can answer:
// the command is refused whole, for every adapter, before anything is
// written.
func invalidText(cmd Command) string {
	for _, u := range append([]User{cmd.User}, cmd.Mentions...) {
		if !utf8.ValidString(u.ID) || !utf8.ValidString(u.Name) || !utf8.ValidString(u.Mention) {
			if u == cmd.User {
				return "your name"
			}
			return "a name you mention"
		}
	}
	if !utf8.ValidString(cmd.Name) || !utf8.ValidString(cmd.Text) || !utf8.ValidString(cmd.Channel) || !utf8.ValidString(cmd.Platform) || !utf8.ValidString(cmd.EventID) {
		return "your message"
	}
	for k, v := range cmd.Args {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return "your message"
		}
	}
	return ""
}

func invalidTextMessage(what string) string {
	return "Sorry, " + what + " contains bytes that are not valid text (UTF-8), so I cannot use it. Nothing was changed; please type it again."
}

func validStrings(ss []string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

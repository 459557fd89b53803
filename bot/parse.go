package bot

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseLine splits a typed chat line into a command name and the text
// after it: "/move e2e4" → ("move", "e2e4", true). Lines that do not start
// with a slash return ok false and the trimmed line as text, so an adapter
// may treat them as moves where that is wanted (the console does).
func ParseLine(line string) (name, text string, ok bool) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "/") {
		return "", line, false
	}
	line = line[1:]
	end := strings.IndexFunc(line, unicode.IsSpace)
	if end < 0 {
		end = len(line)
	}
	name = strings.ToLower(line[:end])
	if i := strings.IndexByte(name, '@'); i >= 0 { // Telegram: /move@topochessbot
		name = name[:i]
	}
	return name, strings.TrimSpace(line[end:]), true
}

// namedArgs are the option names recognised in typed text as key:value
// (or key=value). Anything else stays positional, so "e7e8=q" is a move.
var namedArgs = map[string]string{
	"variant": "variant", "v": "variant",
	"color": "color", "colour": "color", "side": "color",
	"opponent": "opponent", "vs": "opponent",
	"move": "move", "cell": "cell", "square": "cell",
	"game": "game", "g": "game",
	"orientation": "orientation",
	"challenge":   "challenge",
	"answer":      "answer",
	"time":        "time", "clock": "time", "tc": "time",
	"rated": "rated",
	"level": "level", "lvl": "level",
	"position": "position", "pos": "position", "fen": "position",
	"which": "which", "follow": "follow",
}

// splitArgs merges a command's Args with key:value words of its Text and
// returns the remaining words. Mentions ("@bob", "<@123>") are dropped
// from the words; adapters pass them in Command.Mentions.
func splitArgs(given map[string]string, text string) (map[string]string, []string) {
	args := map[string]string{}
	var words []string
	for _, w := range quotedFields(text) {
		if strings.HasPrefix(w, "@") || strings.HasPrefix(w, "<@") {
			continue
		}
		if k, v, ok := cutArg(w); ok {
			if name, known := namedArgs[strings.ToLower(k)]; known && v != "" {
				args[name] = v
				continue
			}
		}
		words = append(words, w)
	}
	// Options given by the platform win over typed ones.
	for k, v := range given {
		if name, known := namedArgs[strings.ToLower(k)]; known {
			k = name
		}
		if v = strings.TrimSpace(v); v != "" && utf8.ValidString(v) {
			args[k] = v
		}
	}
	return args, words
}

// quotedFields splits text at spaces, except inside double quotes, so a
// position string with spaces can be one option: position:"w Ke1,ke8 - -".
// The quotes stay in the word; an unclosed quote runs to the end.
func quotedFields(text string) []string {
	var out []string
	var b strings.Builder
	quoted := false
	for _, r := range text {
		switch {
		case r == '"' || r == '“' || r == '”':
			quoted = !quoted
			b.WriteRune(r)
		case unicode.IsSpace(r) && !quoted:
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

func cutArg(w string) (k, v string, ok bool) {
	i := strings.IndexAny(w, ":=")
	if i <= 0 {
		return "", "", false
	}
	return w[:i], w[i+1:], true
}

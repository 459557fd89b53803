package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Names on the web chat are claimed: the first browser to join as a name
// gets a secret for it, and joining as that name again needs the secret.
// Names are compared as people read them: after NFKC and case folding
// ("ＢＯＢ" and "Bob" are bob), and a name whose look-alike skeleton equals
// a taken name's is refused ("bоb" with a Cyrillic о imitates bob).

// NameStore keeps the owner of each name, keyed by the name's skeleton,
// and must be shared by every process serving the same players (storage
// implements it in the database).
type NameStore interface {
	// ClaimWebName stores (name, hash) under key unless the key is taken,
	// and returns what the key holds afterwards.
	ClaimWebName(key, name string, hash []byte) (heldName string, heldHash []byte, err error)
}

var folder = cases.Fold()

// canonical is the form names are compared in.
func canonical(name string) string { return folder.String(norm.NFKC.String(name)) }

// reserved are the bot's own names (and words that would read as it);
// their skeletons cannot be claimed.
var reserved = []string{"bot", "computer", "topochess", "system", "admin", "anyone", "everyone"}

// script names the alphabet of a letter, grouping the scripts that are
// written together (Japanese mixes kanji and kana).
func script(r rune) string {
	switch {
	case unicode.Is(unicode.Latin, r):
		return "Latin"
	case unicode.Is(unicode.Cyrillic, r):
		return "Cyrillic"
	case unicode.Is(unicode.Greek, r):
		return "Greek"
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo):
		return "CJK"
	}
	for name, t := range unicode.Scripts {
		if unicode.Is(t, r) {
			return name
		}
	}
	return "Unknown"
}

// mixedScripts returns the first two alphabets a name mixes, if any.
func mixedScripts(name string) (a, b string, mixed bool) {
	for _, r := range name {
		if !unicode.IsLetter(r) {
			continue
		}
		sc := script(r)
		if a == "" {
			a = sc
		} else if sc != a {
			return a, sc, true
		}
	}
	return "", "", false
}

// confusables maps letters (after case folding) to the Latin letter they
// look like, in lower or upper case. Digits and letters that are hard to
// tell apart in common fonts share one form too. Claims are stored under
// skeletons, so a change here moves the keys of names claimed since:
// an existing claim then no longer guards the look-alikes of the change.
var confusables = map[rune]string{
	// Cyrillic
	'а': "a", 'в': "b", 'е': "e", 'ё': "e", 'з': "3", 'і': "l", 'ї': "l", 'ј': "j", 'к': "k", 'м': "m",
	'н': "h", 'о': "o", 'р': "p", 'с': "c", 'т': "t", 'у': "y", 'х': "x", 'ѕ': "s", 'ԁ': "d",
	'һ': "h", 'ԛ': "q", 'ԝ': "w", 'ь': "b", 'ӏ': "l", 'ү': "y", 'п': "n", 'г': "r",
	// Greek
	'α': "a", 'β': "b", 'γ': "y", 'ε': "e", 'ζ': "z", 'η': "n", 'ι': "l", 'κ': "k", 'μ': "u",
	'ν': "v", 'ο': "o", 'ρ': "p", 'σ': "o", 'τ': "t", 'υ': "u", 'χ': "x", 'ω': "w",
	'ϳ': "j",
	// Latin and digits
	'i': "l", '1': "l", '|': "l", '0': "o",
	'ı': "l", 'ɩ': "l", 'ɑ': "a", 'ɡ': "g",
}

// skeleton is the form two names have in common when they look alike:
// canonical, without accents, every look-alike mapped to one letter,
// "rn" read as "m" and "vv" as "w".
func skeleton(canon string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(canon) {
		if unicode.Is(unicode.Mn, r) {
			continue // accents: "bób" imitates "bob"
		}
		if s, ok := confusables[r]; ok {
			b.WriteString(s)
		} else {
			b.WriteRune(r)
		}
	}
	out := strings.ReplaceAll(b.String(), "rn", "m")
	return strings.ReplaceAll(out, "vv", "w")
}

func isReserved(skel string) bool {
	for _, n := range reserved {
		if skel == skeleton(n) || n == "topochess" && strings.HasPrefix(skel, skeleton(n)) {
			return true
		}
	}
	return false
}

// names checks joins against the store.
type names struct {
	store NameStore
	log   *slog.Logger
}

// claimError is a refusal to join under a name; status is the HTTP code.
type claimError struct {
	status int
	msg    string
}

func (e *claimError) Error() string { return e.msg }

// join checks that display may be used with secret. A free name is
// claimed and its new secret returned (the browser keeps it); a taken
// one needs its secret.
func (n *names) join(display, secret string) (newSecret string, err error) {
	canon := canonical(display)
	if a, b, mixed := mixedScripts(canon); mixed {
		return "", &claimError{400, fmt.Sprintf("A name may not mix alphabets (%s and %s here); pick one.", a, b)}
	}
	skel := skeleton(canon)
	if isReserved(skel) {
		return "", &claimError{400, "That name is the bot's; pick another."}
	}
	fresh := newID()
	hash := sha256.Sum256([]byte(fresh))
	heldName, heldHash, err := n.store.ClaimWebName(skel, canon, hash[:])
	if err != nil {
		n.log.Error("web chat: name claim", "err", err)
		return "", &claimError{503, "Names cannot be checked right now; try again in a moment."}
	}
	if heldName != canon {
		return "", &claimError{409, fmt.Sprintf("That name looks too much like %s, which is taken; pick another.", heldName)}
	}
	if subtle.ConstantTimeCompare(heldHash, hash[:]) == 1 {
		return fresh, nil
	}
	if secret == "" {
		return "", &claimError{403, fmt.Sprintf("The name %s is taken. Only the browser that took it can join as it; pick another name.", display)}
	}
	given := sha256.Sum256([]byte(secret))
	if subtle.ConstantTimeCompare(heldHash, given[:]) != 1 {
		return "", &claimError{403, fmt.Sprintf("That is not the secret of %s; pick another name.", display)}
	}
	return "", nil
}

// memNames keeps claims in memory, for a chat without a database.
type memNames struct {
	mu sync.Mutex
	m  map[string]memName
}

type memName struct {
	name string
	hash []byte
}

func newMemNames() *memNames { return &memNames{m: map[string]memName{}} }

// maxMemNames bounds a chat without a database.
const maxMemNames = 100000

func (m *memNames) ClaimWebName(key, name string, hash []byte) (string, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if held, ok := m.m[key]; ok {
		return held.name, held.hash, nil
	}
	if len(m.m) >= maxMemNames {
		return "", nil, errors.New("too many names")
	}
	m.m[key] = memName{name, append([]byte(nil), hash...)}
	return name, hash, nil
}

package web

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzNames checks that whatever is typed as a name or in a command, an
// accepted name is a short word that cannot be markup, and mentions only
// ever name such words.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"alice", "<script>", "@bob variant:moebius", "opponent:@x vs:y", "a\x00b", "Zoë", "@@", "@-", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		check := func(name string) {
			if name == "" || len([]rune(name)) > maxNameLen || strings.ContainsAny(name, "<>&\"' @") {
				t.Fatalf("accepted name %q", name)
			}
			for _, r := range name {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-.", r) {
					t.Fatalf("accepted name %q with %q", name, r)
				}
			}
		}
		if name, err := checkName(s, "name"); err == nil {
			check(name)
		}
		for _, u := range mentions(s) {
			check(u.Name)
			if u.ID != "web:"+strings.ToLower(u.Name) {
				t.Fatalf("mention %+v", u)
			}
		}
	})
}

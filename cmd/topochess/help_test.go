package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSubcommandHelp asks every subcommand (render has its own test) for
// its help: each has one, with usage and an example; the flags known
// here are listed, and the examples of the quick ones really run.
func TestSubcommandHelp(t *testing.T) {
	flags := map[string][]string{
		"serve":   {"-config"},
		"console": {"-config", "-images", "-channel"},
		"perft":   {"-variant", "-position", "-moves", "-depth", "-divide"},
		"moves":   {"-variant", "-position", "-moves"},
		"check":   {"-db", "-config", "-timeout"},
		"backup":  {"-db", "-config", "-timeout", "-out"},
		"migrate": {"-from", "-to", "-timeout"},
		"arena":   {"-variant", "-white", "-black", "-games", "-alternate", "-max-moves", "-nodes", "-movetime", "-seed", "-jobs", "-v", "-record"},
		"tune":    {"-variant", "-games", "-o", "-iterations", "-rate", "-cell-decay", "-holdout", "-skip", "-from-default", "-terms", "-labels", "-label", "-label-go", "-label-jobs", "-label-every", "-k", "-min-seen"},
	}
	for name := range commands {
		if name == "render" {
			continue // its help sits with its flags (render_test.go)
		}
		if _, ok := subcommandHelp[name]; !ok {
			t.Errorf("topochess %s has no help text in subcommandHelp", name)
			continue
		}
		want := flags[name]
		for _, ask := range []string{"--help", "-h"} {
			var out, errb bytes.Buffer
			if code := run([]string{name, ask}, nil, &out, &errb); code != 0 || errb.Len() != 0 {
				t.Errorf("%s %s: exit %d, stderr %q", name, ask, code, errb.String())
			}
			s := out.String()
			_, example, _ := strings.Cut(s, "\nExample:\n  ")
			if !strings.HasPrefix(s, "Usage: topochess") || !strings.Contains(example, "topochess "+name) {
				t.Errorf("%s %s lacks usage or example:\n%s", name, ask, s)
			}
			for _, f := range want {
				if !strings.Contains(s, "  "+f+" ") && !strings.Contains(s, "  "+f+"\n") && !strings.Contains(s, "  "+f+"\t") {
					t.Errorf("%s %s does not list %s:\n%s", name, ask, f, s)
				}
			}
		}
	}
	for name := range subcommandHelp {
		if _, ok := commands[name]; !ok {
			t.Errorf("help for %s, which is no subcommand", name)
		}
	}
	for _, name := range []string{"perft", "moves"} {
		words := strings.Fields(subcommandHelp[name].example)[1:]
		var out, errb bytes.Buffer
		if code := run(words, nil, &out, &errb); code != 0 || out.Len() == 0 {
			t.Errorf("the example %q fails: exit %d, %s", subcommandHelp[name].example, code, errb.String())
		}
	}
	// A wrong flag is still a usage error, not help.
	var out, errb bytes.Buffer
	if code := run([]string{"perft", "--nope"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "nope") || out.Len() != 0 {
		t.Errorf("perft --nope: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// TestUsageNamesEveryCommand keeps `topochess help` in step with the
// commands there are.
func TestUsageNamesEveryCommand(t *testing.T) {
	var out bytes.Buffer
	usage(&out)
	for name := range commands {
		if !strings.Contains(out.String(), "topochess "+name+" ") && !strings.Contains(out.String(), "topochess "+name+"\n") &&
			!strings.Contains(out.String(), "topochess ["+name+"]") {
			t.Errorf("topochess help does not mention %s:\n%s", name, out.String())
		}
	}
}

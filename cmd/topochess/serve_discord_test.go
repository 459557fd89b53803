package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"topochess/adapters/discord"
)

func TestDiscordConfig(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.yaml")
	yaml := `discord:
  app_id: "4242"
  guild_ids: ["800", "801"]
  rest_base_url: http://127.0.0.1:9999
  public_key: abcd
  interactions_listen: 127.0.0.1:8081
`
	if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(p, func(k string) string {
		if k == "TOPOCHESS_DISCORD_TOKEN" {
			return "env-token"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	if !discordEnabled(cfg) {
		t.Error("a token from the environment does not enable Discord")
	}
	want := discord.Config{Token: "env-token", AppID: "4242", GuildIDs: []string{"800", "801"}, RESTBaseURL: "http://127.0.0.1:9999",
		PublicKey: "abcd", InteractionsListen: "127.0.0.1:8081"}
	if got := discordConfig(cfg); !reflect.DeepEqual(got, want) {
		t.Errorf("adapter config %+v, want %+v", got, want)
	}
	// A bad public key is refused before anything connects.
	if _, err := discord.New(discordConfig(cfg), nil, nil); err == nil {
		t.Error("a 2-byte public key was accepted")
	}
	if discordEnabled(&Config{}) {
		t.Error("Discord enabled without a token")
	}
}

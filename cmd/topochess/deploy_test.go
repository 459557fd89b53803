package main

import (
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"topochess/adapters/web"
)

// composeFile is the part of deploy/compose.yaml this test reads.
type composeFile struct {
	Services map[string]struct {
		Build *struct {
			Context    string `yaml:"context"`
			Dockerfile string `yaml:"dockerfile"`
		} `yaml:"build"`
		Image       string            `yaml:"image"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Volumes     []string          `yaml:"volumes"`
		Ports       []string          `yaml:"ports"`
		DependsOn   map[string]struct {
			Condition string `yaml:"condition"`
		} `yaml:"depends_on"`
		Networks map[string]struct {
			IPv4 string `yaml:"ipv4_address"`
		} `yaml:"networks"`
	} `yaml:"services"`
}

// composeVar is compose's ${NAME}, ${NAME:-default} and ${NAME:?error}.
var composeVar = regexp.MustCompile(`\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}`)

// interpolate fills compose's variables as an operator who set the
// required ones (and no optional one) would get them.
func interpolate(s string) string {
	return composeVar.ReplaceAllStringFunc(s, func(m string) string {
		g := composeVar.FindStringSubmatch(m)
		if g[2] == "-" {
			return g[3]
		}
		return "set" + strings.ReplaceAll(strings.ToLower(g[1]), "_", "")
	})
}

// deploy/compose.yaml cannot be run here (no Docker daemon): this checks
// what can be checked without one. It parses; the bot processes are
// built from the repository's Dockerfile; every flag and environment
// variable they get is one topochess reads, and the configuration they
// end up with loads and starts a web chat; they share one PostgreSQL
// service and split Discord's gateway into distinct shards; the proxy
// sends the one address to the bot processes' web chats, checks them on
// their ops listeners, and is the proxy their configuration trusts.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal([]byte(interpolate(string(raw))), &c); err != nil {
		t.Fatalf("deploy/compose.yaml: %v", err)
	}
	known := map[string]bool{}
	for _, e := range envOverrides {
		known[e.name] = true
	}
	for _, e := range envNumbers {
		known[e.name] = true
	}
	var bots []string
	var built bool
	shards := map[int]string{}
	webPorts, opsPorts := map[string]bool{}, map[string]bool{}
	var trusted []string
	for name, s := range c.Services {
		if s.Build != nil {
			built = true
			df := filepath.Join("../../deploy", s.Build.Context, s.Build.Dockerfile)
			if _, err := os.Stat(df); err != nil {
				t.Errorf("%s is built from %s: %v", name, df, err)
			}
		}
		if s.Image != "topochess:local" {
			continue
		}
		if s.Build == nil {
			t.Errorf("%s has no build: compose would try to pull %s", name, s.Image)
		}
		bots = append(bots, name)
		if len(s.Command) == 0 || s.Command[0] != "serve" {
			t.Errorf("%s: command %q does not run serve", name, s.Command)
			continue
		}
		fs, configPath := serveFlags(io.Discard)
		if err := fs.Parse(s.Command[1:]); err != nil || fs.NArg() > 0 {
			t.Errorf("%s: serve does not take %q: %v", name, s.Command[1:], err)
			continue
		}
		// The config file the command names, found through the volumes.
		hostConfig := ""
		for _, v := range s.Volumes {
			parts := strings.Split(v, ":")
			if len(parts) >= 2 && parts[1] == *configPath {
				hostConfig = filepath.Join("../../deploy", parts[0])
			}
		}
		if hostConfig == "" {
			t.Errorf("%s: no volume holds %s", name, *configPath)
			continue
		}
		for k := range s.Environment {
			if strings.HasPrefix(k, "TOPOCHESS_") && !known[k] {
				t.Errorf("%s: topochess does not read %s", name, k)
			}
		}
		cfg, err := loadConfig(hostConfig, func(k string) string { return s.Environment[k] })
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !webEnabled(cfg) || discordEnabled(cfg) {
			t.Errorf("%s: without a Discord token it should run the web chat only", name)
		}
		if _, err := web.New(nil, webOptions(cfg, slog.New(slog.DiscardHandler))); err != nil {
			t.Errorf("%s: the web chat would not start: %v", name, err)
		}
		u, err := url.Parse(string(cfg.Storage.PostgresURL))
		if err != nil || u.Scheme != "postgres" || u.Hostname() == "" {
			t.Errorf("%s: storage.postgres_url is not a postgres:// URL", name)
		} else if _, ok := c.Services[u.Hostname()]; !ok || s.DependsOn[u.Hostname()].Condition != "service_healthy" {
			t.Errorf("%s: its database %q is not a service it waits for", name, u.Hostname())
		}
		if other, dup := shards[cfg.Discord.ShardID]; dup {
			t.Errorf("%s and %s are both Discord shard %d", name, other, cfg.Discord.ShardID)
		}
		shards[cfg.Discord.ShardID] = name
		if cfg.Discord.ShardCount < 2 {
			t.Errorf("%s: discord.shard_count %d for several processes", name, cfg.Discord.ShardCount)
		}
		_, port, _ := net.SplitHostPort(cfg.Web.Listen)
		webPorts[port] = true
		_, port, _ = net.SplitHostPort(cfg.Ops.Listen)
		opsPorts[port] = true
		trusted = cfg.Web.TrustedProxies
	}
	slices.Sort(bots)
	if !built || len(bots) < 2 {
		t.Fatalf("bot services %v (built from the Dockerfile: %v); want two or more", bots, built)
	}
	if len(shards) != len(bots) {
		t.Errorf("shards %v for %d processes", shards, len(bots))
	}
	proxy, ok := c.Services["proxy"]
	if !ok || len(proxy.Ports) != 1 {
		t.Fatalf("no proxy publishing one address: %+v", proxy)
	}
	if ip := proxy.Networks["chess"].IPv4; !slices.Contains(trusted, ip) {
		t.Errorf("the proxy is at %q; the bots trust %v", ip, trusted)
	}
	caddy, err := os.ReadFile("../../deploy/Caddyfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`reverse_proxy ([^{]+)\{`).FindSubmatch(caddy)
	if m == nil {
		t.Fatal("the Caddyfile has no reverse_proxy")
	}
	var upstreams []string
	for _, up := range strings.Fields(string(m[1])) {
		host, port, err := net.SplitHostPort(up)
		if err != nil || !webPorts[port] {
			t.Errorf("upstream %s is not a bot's web chat port %v", up, webPorts)
		}
		upstreams = append(upstreams, host)
	}
	slices.Sort(upstreams)
	if !slices.Equal(upstreams, bots) {
		t.Errorf("the proxy sends to %v; the bots are %v", upstreams, bots)
	}
	hp := regexp.MustCompile(`health_port (\d+)`).FindSubmatch(caddy)
	if hp == nil || !opsPorts[string(hp[1])] || !strings.Contains(string(caddy), "health_uri /readyz") {
		t.Errorf("the proxy does not ask the ops listeners (ports %v) /readyz", opsPorts)
	}
}

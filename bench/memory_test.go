package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"

	"topochess/adapters/web"
	"topochess/bot"
	"topochess/render"
	"topochess/storage"
)

// BenchmarkServeMemory measures what `serve` holds after many finished
// games: the real bot on a real database behind the web chat over HTTP,
// pictures at the default size, every command with an event id as the
// page sends it. Each game is a challenge, an accept and fool's mate
// (four moves, five board pictures), spread over 10 rooms.
//
//	cd bench && go test -run XXX -bench ServeMemory -benchtime 1x
//
// TOPOCHESS_GAMES sets the number of games (default 1000);
// TOPOCHESS_HEAPPROFILE=FILE writes a heap profile at the end.
func BenchmarkServeMemory(b *testing.B) {
	games := 1000
	if n, err := strconv.Atoi(os.Getenv("TOPOCHESS_GAMES")); err == nil && n > 0 {
		games = n
	}
	for range b.N {
		serveMemory(b, games)
	}
}

func serveMemory(b *testing.B, games int) {
	st, err := storage.Open(filepath.Join(b.TempDir(), "mem.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := bot.New(st, bot.Config{
		Limits:  bot.Limits{CommandsPer10s: 1 << 30, ActiveGames: 1 << 20},
		Painter: render.New(),
		Logger:  slog.New(slog.DiscardHandler),
	})
	srv, err := web.New(svc, web.Options{Names: st})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	rssStart := procStatus(b, "VmRSS")

	type tab struct{ token string }
	joinAs := func(name, room string) tab {
		var out struct{ Token string }
		post(b, ts.URL+"/api/join", "", map[string]string{"name": name, "room": room}, &out)
		return tab{out.Token}
	}
	const rooms = 10
	var whites, blacks []tab
	for r := range rooms {
		whites = append(whites, joinAs(fmt.Sprintf("w%d", r), fmt.Sprintf("room%d", r)))
		blacks = append(blacks, joinAs(fmt.Sprintf("b%d", r), fmt.Sprintf("room%d", r)))
	}
	seq := 0
	say := func(t tab, text string) {
		seq++
		var out map[string]any
		post(b, ts.URL+"/api/send", t.token, map[string]string{"text": text, "event": fmt.Sprintf("e%d", seq)}, &out)
	}
	b.ResetTimer()
	for g := range games {
		r := g % rooms
		w, k := whites[r], blacks[r]
		say(w, fmt.Sprintf("/challenge @b%d standard white rated:false", r))
		say(k, "/accept")
		say(w, "/move f3")
		say(k, "/move e5")
		say(w, "/move g4")
		say(k, "/move Qh4")
	}
	b.StopTimer()
	// Every game must have ended, or the figures mean nothing.
	finished := 0
	for r := range rooms {
		if active, err := st.ActiveGames(fmt.Sprintf("web:w%d", r), fmt.Sprintf("web:room%d", r)); err != nil || len(active) != 0 {
			b.Fatalf("games still running after fool's mate: %d %v", len(active), err)
		}
		done, err := st.FinishedGames(fmt.Sprintf("web:room%d", r), "", games)
		if err != nil {
			b.Fatal(err)
		}
		finished += len(done)
	}
	if finished != games {
		b.Fatalf("%d games finished, want %d", finished, games)
	}
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
	b.ReportMetric(float64(ms.HeapSys-ms.HeapReleased)/(1<<20), "heap-held-MiB")
	b.ReportMetric(procStatus(b, "VmRSS"), "rss-MiB")
	b.ReportMetric(procStatus(b, "VmHWM"), "peak-rss-MiB")
	b.ReportMetric(rssStart, "start-rss-MiB")
	b.ReportMetric(0, "ns/op")
	if path := os.Getenv("TOPOCHESS_HEAPPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func post(b *testing.B, url, token string, body, out any) {
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("X-Session", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		b.Fatalf("POST %s: %d %s", url, resp.StatusCode, raw)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		b.Fatalf("POST %s: %s", url, raw)
	}
}

// procStatus reads a memory figure of this process in MiB (Linux).
func procStatus(b *testing.B, field string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}

package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixture writes a database with a few hundred games, challenges and
// ratings, closed, and returns its bytes.
func fixture(t testing.TB) []byte {
	t.Helper()
	fixtureOnce.Do(func() { fixtureData = makeFixture(t) })
	if fixtureData == nil {
		t.Fatal("no fixture")
	}
	return fixtureData
}

// opening is a legal start to give the fixture's games real moves.
var opening = []string{"e2-e4", "e7-e5", "g1-f3", "b8-c6", "f1-b5", "a7-a6", "b5-a4", "g8-f6", "d2-d3", "d7-d6", "c2-c3", "c8-g4"}

var (
	fixtureOnce sync.Once
	fixtureData []byte
)

func makeFixture(t testing.TB) []byte {
	path := filepath.Join(t.TempDir(), "fixture.db")
	s, err := Open(path, Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var gs []*Game
	for i := range 250 {
		g := newGame(fmt.Sprintf("u%d", i%37), fmt.Sprintf("u%d", (i+5)%37), fmt.Sprintf("ch%d", i%7))
		g.Moves = append(g.Moves, opening[:i%len(opening)]...)
		gs = append(gs, g)
	}
	if err := s.ImportGames(gs, t0); err != nil {
		t.Fatal(err)
	}
	for i, g := range gs[:100] {
		g.Result, g.Reason, g.Rated = "1-0", "resignation", true
		if err := s.SaveGame(g, fmt.Sprintf("end%d", i), t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RateGame(g.ID, t0, func(g *Game, w, b Rating) (Rating, Rating) {
			w.R, b.R = 1510, 1490
			return w, b
		}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 60 {
		c := &Challenge{Channel: "ch1", From: Player{ID: fmt.Sprintf("u%d", i)}, Variant: "standard", Color: "white", Expires: t0.Add(time.Hour)}
		if err := s.CreateChallenge(c, "", t0, Caps{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// openDamaged opens a damaged copy: it must not panic, and when it fails
// the error names the file and says what to do. When it opens, reading
// every record and writing a new one must not panic either.
func openDamaged(t *testing.T, data []byte, what string) (opened bool) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, Options{Timeout: time.Second, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		msg := err.Error()
		if !errors.Is(err, ErrDamaged) || !strings.Contains(msg, path) || !strings.Contains(msg, "topochess check") || !strings.Contains(msg, "backup") {
			t.Errorf("%s: open failed with %q; want ErrDamaged naming the file, check and backup", what, msg)
		}
		return false
	}
	defer s.Close()
	for i := 1; i <= 260; i++ {
		s.Game(fmt.Sprintf("g%d", i))
	}
	for i := range 8 {
		s.ChannelGames(fmt.Sprintf("ch%d", i))
		s.FinishedGames(fmt.Sprintf("ch%d", i), "", 1000)
		s.ChannelChallenges(fmt.Sprintf("ch%d", i), t0)
	}
	s.Leaderboard("standard")
	if err := s.CreateGame(newGame("x", "y", "ch1"), "", t0); err != nil {
		t.Errorf("%s: write after open: %v", what, err)
	}
	return true
}

func TestTruncatedFileIsReported(t *testing.T) {
	data := fixture(t)
	for _, n := range []int{0, 100, 4096, 5000, 3 * 4096, len(data) / 3, len(data) / 2, len(data) - 4096, len(data) - 1} {
		if n == 0 {
			continue // an empty file is a new database
		}
		if openDamaged(t, data[:n], fmt.Sprintf("truncated to %d of %d bytes", n, len(data))) && n < len(data)/2 {
			t.Errorf("a file truncated to %d of %d bytes opened", n, len(data))
		}
	}
}

func TestRandomBytesAreReported(t *testing.T) {
	data := fixture(t)
	opened, refused := 0, 0
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 18))
		bad := append([]byte(nil), data...)
		off := rng.IntN(len(bad) - 256)
		for i := range 256 {
			bad[off+i] = byte(rng.Uint32())
		}
		if openDamaged(t, bad, fmt.Sprintf("seed %d: 256 random bytes at %d", seed, off)) {
			opened++
		} else {
			refused++
		}
	}
	t.Logf("%d damaged copies refused with an error, %d opened (damage in free pages or record bytes)", refused, opened)
	if refused == 0 {
		t.Error("no damaged copy was refused: the damage missed every page in use")
	}
}

// The walk accepts what bbolt writes: records spanning overflow pages,
// buckets inlined in their parent, a file grown and shrunk by deletes.
func TestSoundFilesVerify(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s, err := Open(path, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	big := newGame("a", "b", "ch")
	for i := range 20000 {
		big.Moves = append(big.Moves, fmt.Sprintf("m%d", i))
	}
	if err := s.CreateGame(big, "", t0); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if err := s.CreateChallenge(&Challenge{Channel: "ch", From: Player{ID: fmt.Sprint(i)}, Expires: t0}, fmt.Sprint("e", i), t0, Caps{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.PruneChallenges(t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := VerifyFile(path, time.Second); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// FuzzVerifyFile: whatever bytes land wherever in a real file, the walk
// answers without panicking and without reading or allocating past it.
func FuzzVerifyFile(f *testing.F) {
	data := fixture(f)
	f.Add(uint32(0), []byte{0})
	f.Add(uint32(4096*3+10), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add(uint32(len(data)/2), []byte("garbage"))
	f.Fuzz(func(t *testing.T, at uint32, patch []byte) {
		b := append([]byte(nil), data...)
		for i, c := range patch {
			if j := int(at%uint32(len(b))) + i; j < len(b) {
				b[j] = c
			}
		}
		verifyFile(bytes.NewReader(b), int64(len(b)))
	})
}

package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"topochess/storage/pgtest"
)

// The storage suite: every case runs against bbolt and against a real
// PostgreSQL server, so both keep one contract (Backend).

// opener opens a handle on the case's database; a case may close one and
// open another (a restart), and with PostgreSQL hold two at once (two
// processes). Handles are closed when the case ends.
type opener func(t testing.TB) Backend

var suite = []struct {
	name string
	run  func(*testing.T, opener)
}{
	{"GameRoundTripAndConflict", suiteGameRoundTripAndConflict},
	{"Indexes", suiteIndexes},
	{"Challenges", suiteChallenges},
	{"SettingsAndEvents", suiteSettingsAndEvents},
	{"DueIndex", suiteDueIndex},
	{"ForgetDue", suiteForgetDue},
	{"FinishedGamesNewestFirst", suiteFinishedGamesNewestFirst},
	{"RateGameOnce", suiteRateGameOnce},
	{"UserActiveGames", suiteUserActiveGames},
	{"OutboxWrittenWithTheGame", suiteOutboxWrittenWithTheGame},
	{"RefusedBounded", suiteRefusedBounded},
	{"ClaimWebName", suiteClaimWebName},
	{"NotFound", suiteNotFound},
	{"CapsInsideTheTransaction", suiteCapsInsideTheTransaction},
	{"RacingSavesOneWins", suiteRacingSavesOneWins},
	{"EventAppliedOnce", suiteEventAppliedOnce},
	{"RacingAcceptsOneGame", suiteRacingAcceptsOneGame},
	{"MessagesAcrossReopen", suiteMessagesAcrossReopen},
	{"RacingSwapsOneChain", suiteRacingSwapsOneChain},
	{"MoveChannel", suiteMoveChannel},
	{"Follows", suiteFollows},
	{"Reviews", suiteReviews},
	{"Puzzles", suitePuzzles},
	{"PuzzleEventOnce", suitePuzzleEventOnce},
	{"RacingPuzzleAnswers", suiteRacingPuzzleAnswers},
	{"FollowAndReviewEvents", suiteFollowAndReviewEvents},
	{"OperationsCounts", suiteOperationsCounts},
	{"JobsClaimedOnce", suiteJobsClaimedOnce},
	{"ExpiredLeaseTakenOver", suiteExpiredLeaseTakenOver},
	{"ReleasedLeaseClaimable", suiteReleasedLeaseClaimable},
	{"JobRevisions", suiteJobRevisions},
	{"ClockJobs", suiteClockJobs},
	{"OutboxClaimed", suiteOutboxClaimed},
}

func runSuite(t *testing.T, fresh func(t testing.TB) opener) {
	for _, c := range suite {
		t.Run(c.name, func(t *testing.T) { c.run(t, fresh(t)) })
	}
}

func TestBoltSuite(t *testing.T) { runSuite(t, freshBolt) }

func TestPostgresSuite(t *testing.T) { runSuite(t, freshPostgres) }

func freshBolt(t testing.TB) opener {
	path := filepath.Join(t.TempDir(), "t.db")
	return func(t testing.TB) Backend {
		t.Helper()
		s, err := Open(path, Options{Timeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}

// pg is the package's throwaway server, started by the first test that
// needs it and stopped by TestMain.
var pg pgtest.Shared

func pgServer(t testing.TB) *pgtest.Server { return pg.Server(t) }

// freshPostgres makes an empty database on the throwaway server.
func freshPostgres(t testing.TB) opener {
	url := pg.Database(t)
	return func(t testing.TB) Backend {
		t.Helper()
		p, err := OpenPostgres(url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	pg.Stop()
	os.Exit(code)
}

func suiteForgetDue(t *testing.T, open opener) {
	s := open(t)
	g := &Game{Variant: "standard", Channel: "c", White: Player{ID: "a"}, Black: Player{ID: "b"}, Clock: &Clock{Control: "1d", Due: t0.Add(time.Hour)}}
	if err := s.CreateGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	if err := s.ForgetDue(g.ID); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.DueGames(t0.Add(2 * time.Hour)); len(ids) != 0 {
		t.Fatalf("forgotten game still due: %v", ids)
	}
	if _, ok, _ := s.NextDue(); ok {
		t.Fatal("NextDue reports a forgotten game")
	}
	// Saving it again indexes it again.
	if err := s.SaveGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.DueGames(t0.Add(2 * time.Hour)); len(ids) != 1 {
		t.Fatalf("saved game not due again: %v", ids)
	}
}

func suiteNotFound(t *testing.T, open opener) {
	s := open(t)
	if _, err := s.Game("g404"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game: %v", err)
	}
	g := newGame("a", "b", "c")
	g.ID, g.Rev = "g404", 1
	if err := s.SaveGame(g, "", t0); !errors.Is(err, ErrNotFound) {
		t.Errorf("SaveGame: %v", err)
	}
	if _, err := s.Challenge("c404"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Challenge: %v", err)
	}
	if err := s.DeleteChallenge("c404", "", t0); !errors.Is(err, ErrNotFound) {
		t.Errorf("DeleteChallenge: %v", err)
	}
	if err := s.AcceptChallenge("c404", newGame("a", "b", "c"), "", t0, Caps{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("AcceptChallenge: %v", err)
	}
	if _, err := s.RateGame("g404", t0, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("RateGame: %v", err)
	}
	if r, err := s.Rating("standard", "nobody"); err != nil || r.User != "nobody" || r.RD != 0 {
		t.Errorf("Rating of nobody: %+v %v", r, err)
	}
	if err := s.DeliveredOutgoing("0000000000000063", ""); err != nil {
		t.Errorf("DeliveredOutgoing of an unknown record: %v", err)
	}
}

// parallel runs fn(i) for i in [0, n) at once and returns the errors.
func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// tally counts nil errors and errors matching target; any other error
// fails the test.
func tally(t *testing.T, errs []error, target error) (ok, matched int) {
	t.Helper()
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, target):
			matched++
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	return ok, matched
}

// Requests arriving together are counted one after the other: of many,
// exactly the cap's worth pass.
func suiteCapsInsideTheTransaction(t *testing.T, open opener) {
	s := open(t)
	caps := Caps{ActiveGames: 3, OpenChallenges: 2, Exempt: "bot"}
	errs := parallel(12, func(i int) error {
		return s.CreateGameCapped(newGame("a", fmt.Sprintf("o%d", i), "c"), caps, "", t0)
	})
	if ok, limited := tally(t, errs, ErrLimit); ok != 3 || limited != 9 {
		t.Fatalf("games: %d created, %d refused; want 3 and 9", ok, limited)
	}
	if n, _ := s.ActiveCount("a"); n != 3 {
		t.Fatalf("ActiveCount(a) = %d", n)
	}
	var le *LimitError
	err := s.CreateGameCapped(newGame("z", "a", "c"), caps, "", t0)
	if !errors.As(err, &le) || le.User.ID != "a" || le.What != "games" || le.Count != 3 {
		t.Fatalf("game with a as Black: %v", err)
	}
	errs = parallel(10, func(i int) error {
		c := &Challenge{Channel: "c", From: Player{ID: "b"}, Variant: "standard", Created: t0, Expires: t0.Add(time.Hour)}
		return s.CreateChallenge(c, "", t0, caps)
	})
	if ok, limited := tally(t, errs, ErrLimit); ok != 2 || limited != 8 {
		t.Fatalf("challenges: %d created, %d refused; want 2 and 8", ok, limited)
	}
	// An expired challenge does not count.
	if got, _ := s.UserChallenges("b", t0.Add(2*time.Hour)); len(got) != 0 {
		t.Fatalf("expired challenges listed: %d", len(got))
	}
	c := &Challenge{Channel: "c", From: Player{ID: "b"}, Created: t0, Expires: t0.Add(3 * time.Hour)}
	if err := s.CreateChallenge(c, "", t0.Add(2*time.Hour), caps); err != nil {
		t.Fatalf("challenge after the others expired: %v", err)
	}
	// Accepting a challenge with a player at the cap writes nothing.
	if err := s.AcceptChallenge(c.ID, newGame("b", "a", "c"), "ev-acc", t0, caps); !errors.Is(err, ErrLimit) {
		t.Fatalf("accept by a capped player: %v", err)
	}
	if _, err := s.Challenge(c.ID); err != nil {
		t.Fatalf("refused accept removed the challenge: %v", err)
	}
	if seen, _ := s.SeenEvent("ev-acc"); seen {
		t.Fatal("refused accept recorded its event")
	}
	// The exempt user is never capped.
	for i := range 5 {
		if err := s.CreateGameCapped(newGame("bot", fmt.Sprintf("p%d", i), "c"), caps, "", t0); err != nil {
			t.Fatalf("exempt user: %v", err)
		}
	}
}

// Several writers holding the same revision: one move is applied, the
// others are told someone else moved first.
func suiteRacingSavesOneWins(t *testing.T, open opener) {
	s := open(t)
	g := newGame("a", "b", "c")
	if err := s.CreateGame(g, "", t0); err != nil {
		t.Fatal(err)
	}
	for round := range 5 {
		var loaded []*Game
		for range 8 {
			mine, err := s.Game(g.ID)
			if err != nil || int(mine.Rev) != round+1 {
				t.Fatalf("round %d: loaded %+v, %v", round, mine, err)
			}
			loaded = append(loaded, mine)
		}
		errs := parallel(8, func(i int) error {
			loaded[i].Moves = append(loaded[i].Moves, fmt.Sprintf("m%d-%d", round, i))
			return s.SaveGame(loaded[i], fmt.Sprintf("r%d-%d", round, i), t0)
		})
		if ok, conflicts := tally(t, errs, ErrConflict); ok != 1 || conflicts != 7 {
			t.Fatalf("round %d: %d saved, %d conflicts; want 1 and 7", round, ok, conflicts)
		}
	}
	got, err := s.Game(g.ID)
	if err != nil || got.Rev != 6 || len(got.Moves) != 5 {
		t.Fatalf("after 5 rounds: rev %d, %d moves, %v", got.Rev, len(got.Moves), err)
	}
}

// One platform event delivered several times at once is applied once.
func suiteEventAppliedOnce(t *testing.T, open opener) {
	s := open(t)
	errs := parallel(8, func(i int) error {
		return s.CreateGame(newGame("a", "b", "c"), "same-event", t0)
	})
	if ok, dup := tally(t, errs, ErrDuplicate); ok != 1 || dup != 7 {
		t.Fatalf("%d applied, %d duplicates; want 1 and 7", ok, dup)
	}
	if gs, _ := s.ChannelGames("c"); len(gs) != 1 {
		t.Fatalf("%d games", len(gs))
	}
	// Expiry: after pruning, the id is free again.
	if n, err := s.PruneEvents(t0.Add(time.Second)); n != 1 || err != nil {
		t.Fatalf("pruned %d, %v", n, err)
	}
	if err := s.CreateGame(newGame("a", "b", "c"), "same-event", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.PruneEvents(t0.Add(time.Minute)); n != 0 {
		t.Fatalf("pruned a newer event")
	}
}

// Of many accepting one challenge at once, one gets the game.
func suiteRacingAcceptsOneGame(t *testing.T, open opener) {
	s := open(t)
	c := &Challenge{Channel: "c", From: Player{ID: "a"}, Created: t0, Expires: t0.Add(time.Hour)}
	if err := s.CreateChallenge(c, "", t0, Caps{}); err != nil {
		t.Fatal(err)
	}
	errs := parallel(8, func(i int) error {
		return s.AcceptChallenge(c.ID, newGame("a", fmt.Sprintf("b%d", i), "c"), "", t0, Caps{ActiveGames: 5},
			&Outgoing{Channel: "c", Caption: "{game} begins"})
	})
	if ok, lost := tally(t, errs, ErrNotFound); ok != 1 || lost != 7 {
		t.Fatalf("%d accepted, %d found it gone; want 1 and 7", ok, lost)
	}
	gs, _ := s.ChannelGames("c")
	out, _ := s.PendingOutgoing("c")
	if len(gs) != 1 || len(out) != 1 || out[0].Caption != gs[0].ID+" begins" {
		t.Fatalf("%d games, outbox %+v", len(gs), out)
	}
}

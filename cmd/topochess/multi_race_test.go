package main

import (
	"fmt"
	"sync"
	"testing"

	"topochess/engine"
	"topochess/storage"
)

// Two serve processes on one database take the same commands on the same
// games at once, from both sides: accepts of one challenge, moves (two
// different ones, or the same one delivered twice), and resigns. Every
// race has one winner: one game per challenge, one move per turn, one
// end per game and one rating change per player — 0 lost, 0 duplicated.
func TestTwoServesRace(t *testing.T) {
	dbURL := pgDatabase(t)
	bin := servingBinary(t)
	a, b := startServe(t, bin, dbURL), startServe(t, bin, dbURL)
	db, err := storage.OpenPostgres(dbURL, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const pairs, plies = 4, 8
	type pair struct {
		room         string
		white, black *webTab
	}
	var ps []pair
	for i := range pairs {
		room := fmt.Sprintf("race%d", i)
		// Each player's session, made on one process, works on both.
		ps = append(ps, pair{room, joinTab(t, a.web, fmt.Sprintf("w%d", i), room, ""), joinTab(t, b.web, fmt.Sprintf("b%d", i), room, "")})
	}
	both := func(send func(base string, side int)) {
		var wg sync.WaitGroup
		for side, p := range []*serveProc{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				send(p.web, side)
			}()
		}
		wg.Wait()
	}
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.white.send(a.web, "/challenge @"+p.black.name+" color:white", "")
			both(func(base string, side int) { p.black.send(base, "/accept", fmt.Sprintf("accept-%d", side)) })
			games, err := db.ChannelGames("web:" + p.room)
			if err != nil || len(games) != 1 {
				t.Errorf("%s: %d games after racing accepts (%v); want 1", p.room, len(games), err)
				return
			}
			id := games[0].ID
			for ply := range plies {
				rec, err := db.Game(id)
				if err != nil {
					t.Error(err)
					return
				}
				if len(rec.Moves) != ply {
					t.Errorf("%s: %d moves before ply %d", id, len(rec.Moves), ply+1)
					return
				}
				g, err := engine.Replay(engine.MustVariant(rec.Variant), rec.Start, rec.Moves)
				if err != nil {
					t.Error(err)
					return
				}
				legal := g.Position().CanonicalMoves()
				mover := p.white
				if ply%2 == 1 {
					mover = p.black
				}
				if ply%4 < 2 {
					// Two different moves, one to each process.
					both(func(base string, side int) {
						mover.send(base, "/move "+legal[side*len(legal)/2], fmt.Sprintf("ply%d-%d-%d", i, ply, side))
					})
				} else {
					// One move delivered to both.
					both(func(base string, _ int) { mover.send(base, "/move "+legal[0], fmt.Sprintf("ply%d-%d", i, ply)) })
				}
			}
			both(func(base string, side int) { p.white.send(base, "/resign", fmt.Sprintf("resign-%d", side)) })
			rec, err := db.Game(id)
			if err != nil {
				t.Error(err)
				return
			}
			if len(rec.Moves) != plies || rec.Result != "0-1" || rec.Reason == "" {
				t.Errorf("%s: %d moves, result %q (%s); want %d moves, 0-1 by resignation", id, len(rec.Moves), rec.Result, rec.Reason, plies)
			}
			for _, who := range []*webTab{p.white, p.black} {
				r, err := db.Rating(rec.Variant, "web:"+who.name)
				if err != nil || r.Wins+r.Draws+r.Losses != 1 {
					t.Errorf("%s's rating after one game: %+v, %v; want one game counted", who.name, r, err)
				}
			}
		}()
	}
	wg.Wait()
	if n, err := db.ActiveGameCount(); err != nil || n != 0 {
		t.Errorf("%d games still active, %v", n, err)
	}
	var all []*storage.Game
	for _, p := range ps {
		gs, err := db.FinishedGames("web:"+p.room, "", 10)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, gs...)
	}
	if len(all) != pairs {
		t.Errorf("%d finished games, want %d", len(all), pairs)
	}
	a.checkOps(t)
	b.checkOps(t)
}

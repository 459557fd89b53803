package web

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"topochess/render"
)

// phonePage is a tab on an emulated phone: 390×844 CSS px at three device
// pixels each, mobile layout, touch input (taps, not mouse clicks).
func phonePage(t *testing.T, browser context.Context, name string) *page {
	t.Helper()
	p := newPage(t, browser, name)
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	return p
}

// noSideways fails the test when the page scrolls sideways.
func (p *page) noSideways(where string) {
	p.t.Helper()
	sw := eval[float64](p, `document.documentElement.scrollWidth`)
	cw := eval[float64](p, `document.documentElement.clientWidth`)
	if sw > cw {
		p.t.Errorf("%s: %s: the page is %v px wide in a %v px screen, so it scrolls sideways", p.name, where, sw, cw)
	}
}

// waitLines waits for n lines of this kind containing text: the second
// game's lines come after the first game's same words.
func (p *page) waitLines(class, text string, n int) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("%d %s lines with %q", n, class, text), fmt.Sprintf(
		`[...document.querySelectorAll('#log li.msg.%s')].filter(m => m.textContent.includes(%s)).length >= %d`, class, jsString(text), n))
}

// sayByTap types a line and taps Send, as on a phone keyboard.
func (p *page) sayByTap(text string) {
	p.t.Helper()
	p.do(chromedp.SendKeys(chromedp.CSS("#line"), text), chromedp.Tap(chromedp.CSS("#say button")))
}

// newestBoard marks the newest board picture with an id and scrolls it
// into the middle of the screen; its box is in CSS px of the viewport.
func (p *page) newestBoard() imgBox {
	p.t.Helper()
	return eval[imgBox](p, `(() => {
		for (const i of document.querySelectorAll('#newest')) i.removeAttribute('id');
		const imgs = document.querySelectorAll('#log img.clickable');
		const i = imgs[imgs.length - 1];
		i.id = 'newest';
		i.scrollIntoView({block: 'center'});
		const r = i.getBoundingClientRect();
		return {ID: i.dataset.image, Left: r.left, Top: r.top, Width: r.width, Height: r.height,
			NaturalWidth: i.naturalWidth, NaturalHeight: i.naturalHeight};
	})()`)
}

// cellMapOf fetches the cell map of a picture, as the page does.
func cellMapOf(t *testing.T, base, id string) render.CellMap {
	t.Helper()
	resp, err := http.Get(base + "/api/map/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m render.CellMap
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&m) != nil {
		t.Fatalf("the cell map of %s: %d", id, resp.StatusCode)
	}
	return m
}

// tapCell taps the middle of a cell of the newest board, the place taken
// from the picture's cell map and scaled to the size the picture is shown.
func (p *page) tapCell(base, cell string) {
	p.t.Helper()
	box := p.newestBoard()
	m := cellMapOf(p.t, base, box.ID)
	for _, c := range m.Cells {
		if c.Cell != cell {
			continue
		}
		var x, y float64
		poly := c.Polygons[0]
		for _, pt := range poly {
			x += pt[0]
			y += pt[1]
		}
		x, y = x/float64(len(poly)), y/float64(len(poly))
		// The point, in CSS px of the page as shown, is brought to the
		// middle of the screen, clear of the header and the dock.
		at := eval[[2]float64](p, fmt.Sprintf(`(() => {
			const i = document.querySelector('#newest');
			let r = i.getBoundingClientRect();
			window.scrollBy(0, r.top + %f * r.height - innerHeight / 2);
			r = i.getBoundingClientRect();
			return [r.left + %f * r.width, r.top + %f * r.height];
		})()`, y/float64(m.Height), x/float64(m.Width), y/float64(m.Height)))
		p.do(chromedp.TapXY(at[0], at[1]))
		return
	}
	p.t.Fatalf("%s: the cell map of %s has no %s", p.name, box.ID, cell)
}

type rect struct{ Left, Top, Width, Height float64 }

func (r rect) overlaps(o rect) bool {
	return r.Left < o.Left+o.Width && o.Left < r.Left+r.Width && r.Top < o.Top+o.Height && o.Top < r.Top+r.Height
}

func (p *page) rectOf(js string) rect {
	p.t.Helper()
	return eval[rect](p, `(() => { const r = (`+js+`).getBoundingClientRect();
		return {Left: r.left, Top: r.top, Width: r.width, Height: r.height}; })()`)
}

// pinch puts two fingers on the screen around (x, y), from apart to
// apart2 CSS px apart along a line, and lifts them.
func (p *page) pinch(x, y, apart, apart2 float64) {
	p.t.Helper()
	touch := func(typ input.DispatchTouchEventType, d float64) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			pts := []*input.TouchPoint{}
			if typ != input.DispatchTouchEventTypeTouchEnd {
				for i, dx := range []float64{-d / 2, d / 2} {
					id := float64(i)
					pts = append(pts, &input.TouchPoint{X: x + dx, Y: y, ID: &id})
				}
			}
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			return err
		})
	}
	steps := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, apart)}
	for i := 1; i <= 5; i++ {
		steps = append(steps, touch(input.DispatchTouchEventTypeTouchMove, apart+(apart2-apart)*float64(i)/5))
	}
	p.do(append(steps, touch(input.DispatchTouchEventTypeTouchEnd, 0))...)
}

// checkBoardOnPhone checks the newest board as a phone shows it: it fills
// the chat column, the page does not scroll sideways, its enlarge control
// is big enough for a thumb and covers no cell, and the full-size view
// shows the picture itself, at its own width, and closes.
func checkBoardOnPhone(t *testing.T, s *Server, p *page, dir, variant string) {
	t.Helper()
	box := p.newestBoard()
	p.noSideways(variant + " board")
	// The column is the chat log; a message's coloured left edge (3 px)
	// is all that may stand beside a board.
	col := eval[float64](p, `document.querySelector('#log').getBoundingClientRect().width`)
	if box.Width < col-4 || box.Width > col+0.5 {
		t.Errorf("%s: the %s board is shown %.1f px wide in a %.1f px column", p.name, variant, box.Width, col)
	}
	t.Logf("%s: the %s board is shown %.1f px wide in a %.1f px column of a %.0f px screen", p.name, variant, box.Width, col,
		eval[float64](p, `innerWidth`))
	img, ok := s.images.get(box.ID)
	if !ok {
		t.Fatalf("%s: the page shows picture %q the server does not have", p.name, box.ID)
	}
	big := p.rectOf(`document.querySelector('#newest').parentElement.querySelector('.enlarge')`)
	if big.Width < 44 || big.Height < 44 {
		t.Errorf("%s: the enlarge control is %.0f×%.0f px, too small for a thumb", p.name, big.Width, big.Height)
	}
	if big.overlaps(rect{box.Left, box.Top, box.Width, box.Height}) {
		t.Errorf("%s: the enlarge control %+v lies over the picture %+v", p.name, big, box)
	}
	p.screenshot(dir, "phone-"+variant+"-chat.png")

	eval[bool](p, `(document.querySelector('#newest + .enlarge').scrollIntoView({block: 'center'}), true)`)
	p.do(chromedp.Tap(chromedp.CSS("#newest + .enlarge")))
	p.waitFor("the full-size view", `(() => { const z = document.querySelector('#zoom'), i = document.querySelector('#zoom-img');
		return !z.hidden && i.complete && i.naturalWidth > 0; })()`)
	if w := eval[int](p, `document.querySelector('#zoom-img').naturalWidth`); w != img.w {
		t.Errorf("%s: the full-size view shows a picture %d px wide; the board is %d px", p.name, w, img.w)
	}
	if got := eval[string](p, `document.querySelector('#zoom-img').src`); got != eval[string](p, `document.querySelector('#newest').src`) {
		t.Errorf("%s: the full-size view shows %s, not the board tapped", p.name, got)
	}
	// At full size one pixel of the picture is at least one CSS pixel and
	// the picture at least as big as in the chat; the view scrolls (or is
	// pinched), the page under it does not.
	if w := p.rectOf(`document.querySelector('#zoom-img')`).Width; w < float64(img.w)-0.5 || w < box.Width {
		t.Errorf("%s: the full-size view shows the %d px picture %.0f px wide (%.0f in the chat)", p.name, img.w, w, box.Width)
	}
	p.noSideways(variant + " full-size view")
	closer := p.rectOf(`document.querySelector('#zoom-close')`)
	if closer.Width < 44 || closer.Height < 44 {
		t.Errorf("%s: the close control is %.0f×%.0f px, too small for a thumb", p.name, closer.Width, closer.Height)
	}
	p.screenshot(dir, "phone-"+variant+"-enlarged.png")
	// Two fingers spread from 90 to 190 px apart: the picture grows by
	// as much, the page itself stays at its scale.
	before := p.rectOf(`document.querySelector('#zoom-img')`)
	p.pinch(195, 420, 90, 190)
	after := p.rectOf(`document.querySelector('#zoom-img')`)
	if want := before.Width * 190 / 90; math.Abs(after.Width-want) > 2 {
		t.Errorf("%s: pinched from %.0f px, the picture is %.0f px wide, want %.0f", p.name, before.Width, after.Width, want)
	}
	if s := eval[float64](p, `visualViewport.scale`); s != 1 {
		t.Errorf("%s: the pinch zoomed the page (scale %v), not the picture", p.name, s)
	}
	p.noSideways(variant + " pinched view")
	p.screenshot(dir, "phone-"+variant+"-pinched.png")
	closer = p.rectOf(`document.querySelector('#zoom-close')`)
	if closer.Left < 0 || closer.Top < 0 || closer.Left+closer.Width > 390 || closer.Top+closer.Height > 844 {
		t.Errorf("%s: after a pinch the close control is off the screen at %+v", p.name, closer)
	}
	p.do(chromedp.Tap(chromedp.CSS("#zoom-close")))
	p.waitFor("the full-size view to close", `document.querySelector('#zoom').hidden`)
}

// TestBrowserPhone plays on an emulated phone: a game on the Möbius strip
// and one on the cube, moves typed bare and made by tapping cells found in
// the cell map, the boards looked at inline and full size.
func TestBrowserPhone(t *testing.T) {
	browser, stop := newBrowser(t)
	defer stop()
	s, ts := newServiceServer(t, 800)
	start := time.Now()
	dir := artifactDir(t)

	alice, bob := phonePage(t, browser, "alice"), phonePage(t, browser, "bob")
	alice.do(chromedp.Navigate(ts.URL), chromedp.WaitVisible(chromedp.CSS("#join-name")))
	alice.noSideways("join form")
	alice.screenshot(dir, "phone-join.png")
	alice.join(ts.URL)
	bob.join(ts.URL)
	alice.noSideways("empty chat")
	// A phone keyboard would write "E4" for e4 and "correct" Nf3; and an
	// input below 16 px zooms the page when focused (iOS).
	if !eval[bool](alice, `(() => { const l = document.querySelector('#line');
		return l.autocapitalize === 'none' && l.getAttribute('autocorrect') === 'off' && !l.spellcheck
			&& parseFloat(getComputedStyle(l).fontSize) >= 16; })()`) {
		t.Error("the input line capitalises, corrects or is under 16 px on a phone")
	}

	games := []struct {
		variant string
		// bare moves for white and black, a piece white taps and where
		// it goes, as the game reports it
		white, black, seenWhite, seenBlack string
		from, to, seenTap                  string
	}{
		{"moebius", "e4", "e5", "1. e4", "1... e5", "g1", "f3", "2. Nf3"},
		{"cube", "4e4", "3e5", "1. 4e4", "1... 3e5", "1g8", "4f3", "2. N4f3"},
	}
	for i, g := range games {
		alice.sayByTap(fmt.Sprintf("/challenge @bob variant:%s color:white", g.variant))
		bob.waitMessage("reply", "challenges")
		if h := eval[float64](bob, `(() => { const bs = [...document.querySelectorAll('#log .buttons button')].filter(b => b.textContent === 'Accept');
			return bs[bs.length - 1].getBoundingClientRect().height; })()`); h < 44 {
			t.Errorf("bob: the Accept button is %.0f px high, too small for a thumb", h)
		}
		bob.pressButton("Accept")
		alice.waitLines("reply", "begins", i+1)
		n := alice.boards()
		alice.sayByTap(g.white)
		bob.waitMessage("reply", g.seenWhite)
		bob.sayByTap(g.black)
		alice.waitMessage("reply", g.seenBlack)
		alice.waitBoards(n + 2)
		if c := eval[int](alice, fmt.Sprintf(`[...document.querySelectorAll('#log li.msg.chat')].filter(m => m.textContent.includes(%s)).length`, jsString(g.black))); c != 0 {
			t.Errorf("%s: bob's bare %s also showed as a chat line", g.variant, g.black)
		}

		n = alice.boards()
		alice.tapCell(ts.URL, g.from)
		alice.waitFor("the selection of "+g.from, fmt.Sprintf(`!document.querySelector('#hint').hidden && document.querySelector('#hint-text').textContent.includes('Selected ' + %s)`, jsString(g.from)))
		alice.waitLines("private", "can go to", i+1)
		alice.waitBoards(n + 1)
		checkBoardOnPhone(t, s, alice, dir, g.variant)
		alice.tapCell(ts.URL, g.to)
		bob.waitMessage("reply", g.seenTap)
		alice.sayByTap("/resign")
		bob.waitLines("reply", "resign", i+1)
	}
	t.Logf("phone screenshots in %s; took %v", dir, time.Since(start).Round(time.Millisecond))
}

package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath finds Debian's chromium (or the one TOPOCHESS_CHROMIUM
// names); "" when there is none.
func chromiumPath() string {
	for _, p := range []string{os.Getenv("TOPOCHESS_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// artifactDir is where pictures a person should look at are kept:
// $TEST_ARTIFACTS when set, else the test's temporary folder.
func artifactDir(t *testing.T) string {
	if d := os.Getenv("TEST_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err == nil {
			return d
		}
	}
	return t.TempDir()
}

// page is one person's browser tab in a browser context of its own
// (its own cookies and session storage).
type page struct {
	t    *testing.T
	name string
	ctx  context.Context
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", p.name, err)
	}
}

func eval[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("%s: %s: %v", p.name, js, err)
	}
	return v
}

// waitFor polls a JavaScript condition.
func (p *page) waitFor(what, js string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		p.t.Fatalf("%s: waiting for %s: %v", p.name, what, err)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// boards counts the board pictures on the page that have loaded.
const boardsJS = `[...document.querySelectorAll('#log img.clickable')].filter(i => i.complete && i.naturalWidth > 0).length`

func (p *page) boards() int { return eval[int](p, boardsJS) }

func (p *page) waitBoards(n int) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("%d board pictures", n), fmt.Sprintf("%s >= %d", boardsJS, n))
}

// waitMessage waits for a line containing text; class narrows the kind
// ("reply", "error", "chat").
func (p *page) waitMessage(class, text string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("a %s line with %q", class, text), fmt.Sprintf(
		`[...document.querySelectorAll('#log li.msg.%s')].some(m => m.textContent.includes(%s))`, class, jsString(text)))
}

func (p *page) say(text string) {
	p.t.Helper()
	p.do(chromedp.SendKeys(chromedp.CSS("#line"), text), chromedp.Click(chromedp.CSS("#say button")))
}

func (p *page) join(base string) {
	p.t.Helper()
	p.do(
		chromedp.Navigate(base),
		chromedp.WaitVisible(chromedp.CSS("#join-name")),
		chromedp.SendKeys(chromedp.CSS("#join-name"), p.name),
		chromedp.Click(chromedp.CSS("#join button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS("#line")),
	)
}

// pressButton clicks the newest enabled button with this label.
func (p *page) pressButton(label string) {
	p.t.Helper()
	p.waitFor("button "+label, fmt.Sprintf(`(() => {
		const bs = [...document.querySelectorAll('#log .buttons button')].filter(b => b.textContent === %s && !b.disabled);
		if (!bs.length) return false;
		bs[bs.length - 1].click();
		return true;
	})()`, jsString(label)))
}

type imgBox struct {
	ID                          string
	Left, Top, Width, Height    float64
	NaturalWidth, NaturalHeight float64
}

// clickCell clicks, with the mouse, the centre of a standard-board cell
// on the newest board picture. The cell's place is worked out from the
// layout (cellCentre) rather than with CellAt, so the test checks the
// server's mapping; the server only tells which side the picture is
// drawn from.
func (p *page) clickCell(s *Server, cell string) {
	p.t.Helper()
	box := eval[imgBox](p, `(() => {
		const imgs = document.querySelectorAll('#log img.clickable');
		const i = imgs[imgs.length - 1];
		i.scrollIntoView({block: 'center'});
		const r = i.getBoundingClientRect();
		return {ID: i.dataset.image, Left: r.left, Top: r.top, Width: r.width, Height: r.height,
			NaturalWidth: i.naturalWidth, NaturalHeight: i.naturalHeight};
	})()`)
	img, ok := s.images.get(box.ID)
	if !ok {
		p.t.Fatalf("%s: the page shows picture %q the server does not have", p.name, box.ID)
	}
	nx, ny := cellCentre(int(box.NaturalWidth), int(box.NaturalHeight), img.orientation, cell)
	x := box.Left + nx*box.Width/box.NaturalWidth
	y := box.Top + ny*box.Height/box.NaturalHeight
	p.do(chromedp.MouseClickXY(x, y))
}

func (p *page) screenshot(dir, name string) string {
	p.t.Helper()
	// The viewport, as a person sees it: the header and the input line
	// stay put while the conversation scrolls.
	shot, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("%s: screenshot: %v", p.name, err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// newBrowser starts a headless Chromium for the test; the flags keep it
// from reaching for the network, which stalls it on a closed machine.
func newBrowser(t *testing.T) (context.Context, context.CancelFunc) {
	path := chromiumPath()
	if path == "" {
		t.Skip("chromium is not installed (Debian: apt-get install chromium); the browser test needs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 55*time.Second)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(900, 1000),
	)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	if err := chromedp.Do(browser); err != nil {
		cancelBrowser()
		cancelAlloc()
		cancel()
		t.Fatalf("starting chromium: %v", err)
	}
	return browser, func() {
		cancelBrowser()
		cancelAlloc() // waits for the browser to exit, before its folder is removed
		cancel()
	}
}

func newPage(t *testing.T, browser context.Context, name string) *page {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	return &page{t: t, name: name, ctx: ctx}
}

// TestBrowserGame plays through the page in a real browser, on the real
// bot: two people in two browser contexts join, challenge, accept, move
// by typing and by clicking the board, try an illegal move and agree a
// draw with a button only the opponent can press.
func TestBrowserGame(t *testing.T) {
	browser, stop := newBrowser(t)
	defer stop()
	// Pictures as wide as the bot draws them for chat, wider than the
	// page shows them inline, so the full-size view has more to show.
	s, ts := newServiceServer(t, 800)
	start := time.Now()

	alice, bob := newPage(t, browser, "alice"), newPage(t, browser, "bob")
	alice.join(ts.URL)

	// A name that is markup is refused with a message, shown as text.
	bob.do(
		chromedp.Navigate(ts.URL),
		chromedp.WaitVisible(chromedp.CSS("#join-name")),
		chromedp.SendKeys(chromedp.CSS("#join-name"), "<script>"),
		chromedp.Click(chromedp.CSS("#join button[type=submit]")),
	)
	bob.waitFor("the name refusal", `!document.querySelector('#join-error').hidden && document.querySelector('#join-error').textContent.includes('letters')`)
	bob.join(ts.URL)

	alice.say("/challenge @bob color:white")
	bob.waitMessage("reply", "challenges")
	// Alice pressing Accept on her own challenge is told why not.
	alice.pressButton("Accept")
	alice.waitMessage("reply", "You cannot accept your own challenge")
	bob.pressButton("Accept")
	alice.waitMessage("reply", "begins")
	// Her page edits the challenge to say who accepted it.
	alice.waitFor("the challenge edited", `[...document.querySelectorAll('#log li[data-key="challenge:c1"] .text')].some(t => t.textContent.includes('Accepted by bob: game #1.'))`)
	alice.waitBoards(1)
	bob.waitBoards(1)

	// Each typed move shows a new picture to both players; bob types his
	// bare, as in the console, and it plays.
	for i, mv := range []struct {
		who        *page
		line, seen string
	}{{alice, "/move e2e4", "1. e4"}, {bob, "e5", "1... e5"}} {
		mv.who.say(mv.line)
		for _, p := range []*page{alice, bob} {
			p.waitMessage("reply", mv.seen)
			p.waitBoards(2 + i)
		}
	}
	if n := eval[int](alice, `[...document.querySelectorAll('#log li.msg.chat')].filter(m => m.textContent.includes('e5')).length`); n != 0 {
		t.Errorf("bob's bare e5 also showed as %d chat line(s)", n)
	}

	// An illegal move is refused, to the mover only.
	alice.say("/move e1e3")
	alice.waitMessage("error", "illegal")
	if n := eval[int](bob, `document.querySelectorAll('#log li.error').length`); n != 0 {
		t.Errorf("bob sees %d error lines meant for alice", n)
	}

	// Moving by clicking: the knight on g1, then f3.
	n := alice.boards()
	alice.clickCell(s, "g1")
	alice.waitFor("the selection hint", `!document.querySelector('#hint').hidden && document.querySelector('#hint-text').textContent.includes('g1')`)
	alice.waitMessage("private", "can go to")
	alice.waitBoards(n + 1) // the private picture of the knight's moves
	dir := artifactDir(t)
	selected := alice.screenshot(dir, "web-chat-selected.png")
	bobBoards := bob.boards()
	alice.clickCell(s, "f3")
	bob.waitMessage("reply", "2. Nf3")
	bob.waitBoards(bobBoards + 1)
	alice.waitFor("the hint to go", `document.querySelector('#hint').hidden`)
	// The clicks were found in the picture's cell map.
	if !eval[bool](alice, `performance.getEntriesByType('resource').some(e => e.name.includes('/api/map/'))`) {
		t.Error("the page did not fetch a cell map for its clicks")
	}

	// The enlarge control opens the newest board full size without
	// selecting a cell; a tap fits it to the screen; Escape closes it.
	said := eval[int](alice, `document.querySelectorAll('#log li.msg.said').length`)
	eval[bool](alice, `(() => { const bs = document.querySelectorAll('#log figure.board .enlarge'); const b = bs[bs.length - 1];
		b.id = 'newest-enlarge'; b.scrollIntoView({block: 'center'}); return true; })()`)
	alice.do(chromedp.Click(chromedp.CSS("#newest-enlarge"))) // a real mouse click
	alice.waitFor("the full-size view", `(() => { const z = document.querySelector('#zoom'), i = document.querySelector('#zoom-img');
		return !z.hidden && i.complete && i.naturalWidth > 0 && Math.abs(i.getBoundingClientRect().width - i.naturalWidth) < 1; })()`)
	zoomed := alice.screenshot(dir, "web-chat-enlarged.png")
	if w := eval[float64](alice, `document.querySelector('#zoom-img').naturalWidth`); w <= 480 {
		t.Errorf("the full-size picture is only %v px wide", w)
	}
	alice.do(chromedp.Click(chromedp.CSS("#zoom-img")))
	alice.waitFor("the picture fitted to the screen", `document.querySelector('#zoom-img').getBoundingClientRect().width <= window.innerWidth`)
	alice.do(chromedp.KeyEvent("\x1b"))
	alice.waitFor("the full-size view to close", `document.querySelector('#zoom').hidden`)
	if n := eval[int](alice, `document.querySelectorAll('#log li.msg.said').length`); n != said || !eval[bool](alice, `document.querySelector('#hint').hidden`) {
		t.Errorf("enlarging sent a command or selected a cell (%d lines said, was %d)", n, said)
	}
	t.Logf("full-size view: %s", zoomed)

	// A draw offer: its buttons work for bob only.
	alice.say("/draw")
	bob.waitMessage("reply", "offers a draw")
	alice.waitFor("alice's Accept draw disabled", `[...document.querySelectorAll('#log .buttons button')].some(b => b.textContent === 'Accept draw' && b.disabled)`)
	bob.pressButton("Accept draw")
	alice.waitMessage("reply", "Draw agreed")

	// Chat is text, never markup.
	bob.say(`<img src=x onerror="document.title='owned'"> good game`)
	alice.waitMessage("chat", "<img src=x")
	if got := eval[int](alice, `document.querySelectorAll('#log .chat img').length`); got != 0 {
		t.Error("a chat line became an element")
	}

	t.Logf("screenshots: %s, %s, %s", selected, alice.screenshot(dir, "web-chat-alice.png"), bob.screenshot(dir, "web-chat-bob.png"))
	t.Logf("browser game took %v", time.Since(start).Round(time.Millisecond))
}

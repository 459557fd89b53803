package web

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The page keeps the secret of the name it took and sends it when it
// joins again; another browser typing the same name in other capitals
// is refused.
func TestBrowserKeepsNameSecret(t *testing.T) {
	browser, stop := newBrowser(t)
	defer stop()
	_, _, ts := newTestServer(t, Options{})
	alice := newPage(t, browser, "alice")
	alice.join(ts.URL)
	if got := eval[bool](alice, `(JSON.parse(localStorage.getItem('topochess-names') || '{}').alice || '').length >= 32`); !got {
		t.Fatal("the page did not keep the name's secret")
	}

	mallory := newPage(t, browser, "ALICE")
	mallory.do(
		chromedp.Navigate(ts.URL),
		chromedp.WaitVisible(chromedp.CSS("#join-name")),
		chromedp.SendKeys(chromedp.CSS("#join-name"), "ALICE"),
		chromedp.Click(chromedp.CSS("#join button[type=submit]")),
	)
	mallory.waitFor("the refusal of a taken name", `!document.querySelector('#join-error').hidden && document.querySelector('#join-error').textContent.includes('taken')`)

	// Alice leaves and comes back: her page sends the secret.
	alice.do(chromedp.Click(chromedp.CSS("#leave")), chromedp.WaitVisible(chromedp.CSS("#join-name")))
	alice.join(ts.URL)
	alice.say("hello again")
	alice.waitMessage("chat", "hello again")
}

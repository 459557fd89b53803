package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"html/template"
	"net/http"
	"sync"
	"time"
)

// auth guards a chat opened to other machines with one shared password.
// Each login gets a session of its own: a random token in a cookie,
// valid for a limited time, ended by logging out or by a new password
// (which a restart brings). Sessions live in memory, and with a shared
// log in its records too (under the same digests), so that every
// process knows them.
type auth struct {
	password [32]byte // SHA-256, so comparing takes the same time whatever the length
	ttl      time.Duration
	mu       sync.Mutex
	// sessions is keyed by a SHA-256 of each token (key): a copy of the map
	// (a heap dump, a debugger) holds no usable cookie, and looking a
	// cookie up compares digests, so its timing tells nothing about
	// what a valid token starts with.
	sessions map[[32]byte]time.Time // key(token) → expiry
	// fails throttles wrong passwords per client address; one address
	// guessing never slows the others.
	fails *limiter
}

const (
	authCookie  = "topochess_auth"
	maxLogins   = 10000
	loginBurst  = 5
	loginRefill = 20 * time.Second
)

func newAuth(password string, ttl time.Duration) *auth {
	return &auth{
		password: sha256.Sum256([]byte(password)),
		ttl:      ttl,
		sessions: map[[32]byte]time.Time{},
		fails:    newLimiter(loginBurst, loginRefill, maxLogins),
	}
}

func (a *auth) ok(r *http.Request, now time.Time) bool {
	c, err := r.Cookie(authCookie)
	if err != nil {
		return false
	}
	key := a.key(c.Value)
	a.mu.Lock()
	defer a.mu.Unlock()
	exp, found := a.sessions[key]
	if found && now.After(exp) {
		delete(a.sessions, key)
		return false
	}
	return found
}

// key is what a login is kept under: a SHA-256 of the token and the
// password, so a login made under another password (kept in a shared
// log, see shared.go) is never valid again: changing the password ends
// every login, in memory or in the database.
func (a *auth) key(tok string) [32]byte {
	return sha256.Sum256(append(a.password[:], tok...))
}

func (a *auth) check(password string) bool {
	given := sha256.Sum256([]byte(password))
	return subtle.ConstantTimeCompare(given[:], a.password[:]) == 1
}

// login starts a session; over the cap, expired ones go first, then the
// one closest to expiring.
func (a *auth) login(now time.Time) string {
	tok := newID() + newID()
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.sessions) >= maxLogins {
		var soonest [32]byte
		var soonestExp time.Time
		for k, exp := range a.sessions {
			if now.After(exp) {
				delete(a.sessions, k)
			} else if soonestExp.IsZero() || exp.Before(soonestExp) {
				soonest, soonestExp = k, exp
			}
		}
		if len(a.sessions) >= maxLogins {
			delete(a.sessions, soonest)
		}
	}
	a.sessions[a.key(tok)] = now.Add(a.ttl)
	return tok
}

// put and drop apply a login or logout made on another process.
func (a *auth) put(key [32]byte, exp time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.sessions[key]; !ok && len(a.sessions) >= maxLogins {
		return // a login made here is kept over one made elsewhere
	}
	a.sessions[key] = exp
}

func (a *auth) drop(key [32]byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.sessions, key)
}

func (a *auth) logout(r *http.Request) {
	if c, err := r.Cookie(authCookie); err == nil {
		key := a.key(c.Value)
		a.mu.Lock()
		delete(a.sessions, key)
		a.mu.Unlock()
	}
}

var loginPage = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>topochess — log in</title><link rel="stylesheet" href="/static/style.css"></head>
<body class="login"><form method="post" action="/login" class="card">
<h1>topochess</h1>
<p>This chat is protected by a password.</p>
{{if .Bad}}<p class="error" role="alert">That password is not right.</p>{{end}}
{{if .Wait}}<p class="error" role="alert">Too many wrong passwords from here; try again in {{.Wait}} seconds.</p>{{end}}
<label>Password <input type="password" name="password" autofocus required autocomplete="current-password"></label>
<button type="submit" class="primary">Enter</button>
</form></body></html>
`))

var logoutPage = template.Must(template.New("logout").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>topochess — log out</title><link rel="stylesheet" href="/static/style.css"></head>
<body class="login"><form method="post" action="/logout" class="card">
<h1>topochess</h1>
<p>Log this browser out of the chat?</p>
<button type="submit" class="primary">Log out</button>
</form></body></html>
`))

type loginView struct {
	Bad  bool
	Wait int
}

func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) {
	if s.auth == nil || s.auth.ok(r, s.opt.Now()) {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = loginPage.Execute(w, loginView{Bad: r.URL.Query().Has("bad")})
}

func (s *Server) postLogin(w http.ResponseWriter, r *http.Request) {
	if s.auth == nil {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	now := s.opt.Now()
	from := s.clientAddr(r)
	// Every attempt takes a token before the password is looked at (so
	// guesses sent all at once are counted too); the right one gives
	// them all back.
	if ok, wait := s.auth.fails.allow(from, now); !ok {
		s.tooManyGuesses(w, wait)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if !s.auth.check(r.PostFormValue("password")) {
		s.log.Info("wrong web chat password", "from", from)
		http.Redirect(w, r, "/login?bad=1", http.StatusSeeOther)
		return
	}
	s.auth.fails.reset(from)
	tok := s.auth.login(now)
	s.shareLogin(tok, false)
	http.SetCookie(w, &http.Cookie{
		Name: authCookie, Value: tok, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.secure(r),
		MaxAge: int(s.opt.SessionTTL / time.Second),
	})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) tooManyGuesses(w http.ResponseWriter, wait time.Duration) {
	secs := int(wait/time.Second) + 1
	w.Header().Set("Retry-After", fmt.Sprint(secs))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusTooManyRequests)
	_ = loginPage.Execute(w, loginView{Wait: secs})
}

func (s *Server) serveLogout(w http.ResponseWriter, r *http.Request) {
	if s.auth == nil {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = logoutPage.Execute(w, nil)
}

// postLogout ends this browser's session. The cookie is SameSite=Strict,
// so another site cannot log a browser out.
func (s *Server) postLogout(w http.ResponseWriter, r *http.Request) {
	if s.auth != nil {
		s.auth.logout(r)
		if c, err := r.Cookie(authCookie); err == nil {
			s.shareLogin(c.Value, true)
		}
		http.SetCookie(w, &http.Cookie{Name: authCookie, Value: "", Path: "/", HttpOnly: true,
			SameSite: http.SameSiteStrictMode, Secure: s.secure(r), MaxAge: -1})
	}
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

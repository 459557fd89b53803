package web

import (
	"crypto/subtle"
	"html/template"
	"net/http"
	"sync"
	"time"
)

// auth guards a chat opened to other machines with one shared password.
// A browser that gave it once carries a cookie with a secret drawn at
// start, so restarting the server logs everyone out.
type auth struct {
	password []byte
	cookie   string
	// failMu serialises wrong guesses, each followed by a pause, so the
	// password cannot be guessed quickly.
	failMu sync.Mutex
}

const authCookie = "topochess_auth"

func newAuth(password string) *auth {
	return &auth{password: []byte(password), cookie: newID()}
}

func (a *auth) ok(r *http.Request) bool {
	c, err := r.Cookie(authCookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(a.cookie)) == 1
}

var loginPage = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>topochess — log in</title><link rel="stylesheet" href="/static/style.css"></head>
<body class="login"><form method="post" action="/login" class="card">
<h1>topochess</h1>
<p>This chat is protected by a password.</p>
{{if .Bad}}<p class="error" role="alert">That password is not right.</p>{{end}}
<label>Password <input type="password" name="password" autofocus required autocomplete="current-password"></label>
<button type="submit" class="primary">Enter</button>
</form></body></html>
`))

func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) {
	if s.auth == nil || s.auth.ok(r) {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = loginPage.Execute(w, struct{ Bad bool }{r.URL.Query().Has("bad")})
}

func (s *Server) postLogin(w http.ResponseWriter, r *http.Request) {
	if s.auth == nil {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	given := []byte(r.PostFormValue("password"))
	if subtle.ConstantTimeCompare(given, s.auth.password) != 1 {
		s.auth.failMu.Lock()
		time.Sleep(400 * time.Millisecond)
		s.auth.failMu.Unlock()
		http.Redirect(w, r, "/login?bad=1", http.StatusSeeOther)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: authCookie, Value: s.auth.cookie, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
		MaxAge: 30 * 24 * 3600,
	})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

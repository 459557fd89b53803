package web

import "errors"

// Connected reports, for the operator's readiness check, whether the
// chat takes connections: from the moment Run listens until it stops.
func (s *Server) Connected() error {
	if !s.listening.Load() {
		return errors.New("web chat: not listening")
	}
	return nil
}

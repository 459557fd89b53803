package discord

import "errors"

// Connected reports, for the operator's readiness check, whether the
// adapter takes interactions: the endpoint listens, or the gateway is
// connected and its heartbeats are answered (discordgo clears DataReady
// when the connection drops and sets it again once it is back).
func (a *Adapter) Connected() error {
	select {
	case <-a.ready:
	default:
		return errors.New("discord: not connected yet")
	}
	if a.cfg.InteractionsListen != "" {
		return nil
	}
	a.s.RLock()
	up := a.s.DataReady
	a.s.RUnlock()
	if !up {
		return errors.New("discord: the gateway connection is down")
	}
	return nil
}

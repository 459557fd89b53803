package bot

import (
	"errors"
	"time"

	"topochess/storage"
)

// What adapters remember about the messages they sent is stored with the
// games, so that buttons keep working after a restart: the message that
// carries a reply key (to take its buttons away when a later reply
// supersedes it) and buttons too long for the platform's button data.
// Failures are logged and read as "not known": the adapter then behaves
// as if the message were old.

// MessageMemory is how long message keys and kept buttons are kept.
const MessageMemory = 30 * 24 * time.Hour

// SwapMessage records that message carries key in channel and returns
// the message that carried it before ("" if none).
func (s *Service) SwapMessage(channel, key, message string) (previous string) {
	prev, err := s.store.SwapMessage(channel, key, message, s.now())
	if err != nil {
		s.log.Error("remember message", "channel", channel, "key", key, "err", err)
	}
	return prev
}

// Message returns the message carrying key in channel ("" if none).
func (s *Service) Message(channel, key string) string {
	m, err := s.store.Message(channel, key)
	if err != nil {
		s.log.Error("look up message", "channel", channel, "key", key, "err", err)
	}
	return m
}

// TakeMessage returns and forgets the message carrying key in channel.
func (s *Service) TakeMessage(channel, key string) (message string) {
	m, err := s.store.TakeMessage(channel, key)
	if err != nil {
		s.log.Error("forget message", "channel", channel, "key", key, "err", err)
	}
	return m
}

// KeepButton stores a button under an id that is never reused.
func (s *Service) KeepButton(platform string, b Button) (id string, ok bool) {
	id, err := s.store.KeepButton(platform, storage.KeptButton{Label: b.Label, Command: b.Command, Args: b.Args, For: b.For, At: s.now()})
	if err != nil {
		s.log.Error("keep button", "platform", platform, "err", err)
		return "", false
	}
	return id, true
}

// KeptButton loads a button kept by KeepButton.
func (s *Service) KeptButton(platform, id string) (Button, bool) {
	kb, err := s.store.Button(platform, id)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			s.log.Error("load kept button", "platform", platform, "id", id, "err", err)
		}
		return Button{}, false
	}
	if kb.Args == nil {
		kb.Args = map[string]string{}
	}
	return Button{Label: kb.Label, Command: kb.Command, Args: kb.Args, For: kb.For}, true
}

// pruneMessages forgets what is older than MessageMemory.
func (s *Service) pruneMessages(now time.Time) {
	if n, err := s.store.PruneMessages(now.Add(-MessageMemory)); err != nil {
		s.log.Error("prune message keys", "err", err)
	} else if n > 0 {
		s.log.Info("pruned message keys and kept buttons", "count", n)
	}
}

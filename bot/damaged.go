package bot

import (
	"errors"

	"topochess/storage"
)

// forgetDamaged stops the clock from trying a damaged game every tick.
func (s *Service) forgetDamaged(id string, err error) {
	var re *storage.RecordError
	if !errors.As(err, &re) {
		return
	}
	if err := s.store.ForgetDue(id); err != nil {
		s.log.Error("clock: forget damaged game", "game", id, "err", err)
		return
	}
	s.log.Warn("clock: damaged game left off the clock until its record is restored", "game", id)
}

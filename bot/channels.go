package bot

// MoveChannel follows a channel that changed its id (a Telegram group
// upgraded to a supergroup): its games, finished ones included, and its
// open challenges go with it. Games being changed at the same moment
// fail their save and are tried again by their players; nothing is lost.
func (s *Service) MoveChannel(from, to string) error {
	games, challenges, err := s.store.MoveChannel(from, to)
	if err != nil {
		s.log.Error("move channel", "from", from, "to", to, "err", err)
		return err
	}
	if games+challenges > 0 {
		s.log.Info("channel moved", "from", from, "to", to, "games", games, "challenges", challenges)
	}
	return nil
}

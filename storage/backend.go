package storage

import "time"

// Backend is the storage contract the bot is written against. Two
// implementations keep it: *Store (bbolt, the embedded default: one
// process, one file) and *Postgres (several processes on one networked
// database). It lives here rather than in bot because the shared test
// suite (suite_test.go) runs every method against both, and topochess
// migrate moves records between them; one list, checked at compile time
// below, keeps the three in step.
//
// A new storage method the bot needs is added in four places: the bbolt
// method, the PostgreSQL method (with a numbered schema step in
// pgschema.go when it needs a table), this interface, and a case in the
// suite; records that must survive a move off bbolt get a line in
// migrate.go.
type Backend interface {
	Close() error

	CreateGame(g *Game, eventID string, now time.Time, out ...*Outgoing) error
	CreateGameCapped(g *Game, caps Caps, eventID string, now time.Time, out ...*Outgoing) error
	SaveGame(g *Game, eventID string, now time.Time, out ...*Outgoing) error
	Game(id string) (*Game, error)
	ActiveGames(userID, channel string) ([]*Game, error)
	ChannelGames(channel string) ([]*Game, error)
	UserActiveGames(userID string) ([]*Game, error)
	ActiveCount(userID string) (int, error)
	ActiveGameCount() (int, error)
	ImportGames(gs []*Game, now time.Time) error

	CreateChallenge(c *Challenge, eventID string, now time.Time, caps Caps) error
	Challenge(id string) (*Challenge, error)
	DeleteChallenge(id, eventID string, now time.Time) error
	AcceptChallenge(id string, g *Game, eventID string, now time.Time, caps Caps, out ...*Outgoing) error
	ChannelChallenges(channel string, now time.Time) ([]*Challenge, error)
	UserChallenges(userID string, now time.Time) ([]*Challenge, error)
	PruneChallenges(now time.Time) (int, error)

	Settings(userID string) (Settings, error)
	SaveSettings(userID string, st Settings, eventID string, now time.Time) error

	SeenEvent(eventID string) (bool, error)
	PruneEvents(before time.Time) (int, error)

	DueGames(now time.Time) ([]string, error)
	ForgetDue(id string) error
	NextDue() (t time.Time, ok bool, err error)
	FinishedGames(channel, userID string, limit int) ([]*Game, error)

	Rating(variant, userID string) (Rating, error)
	RateGame(id string, now time.Time, update func(g *Game, white, black Rating) (Rating, Rating)) (*Game, error)
	Leaderboard(variant string) ([]Rating, error)
	UserRatings(userID string) ([]Rating, error)

	PutOutgoing(now time.Time, out ...*Outgoing) error
	ReplaceOutgoing(done []string, now time.Time, out ...*Outgoing) error
	PendingOutgoing(prefix string) ([]*Outgoing, error)
	DeliveredOutgoing(id, refused string) error
	RefusedOutgoing(channel string) ([]*Outgoing, error)
	OutboxCount() (int, error)

	ClaimWebName(key, name string, hash []byte) (heldName string, heldHash []byte, err error)

	SwapMessage(channel, replyKey, message string, now time.Time) (previous string, err error)
	Message(channel, replyKey string) (message string, err error)
	TakeMessage(channel, replyKey string) (message string, err error)
	KeepButton(platform string, b KeptButton) (id string, err error)
	Button(platform, id string) (KeptButton, error)
	PruneMessages(before time.Time) (int, error)

	MoveChannel(from, to string) (games, challenges int, err error)

	LeaseOwner() string
	AddJob(j Job, claim bool) (added bool, err error)
	ClaimJobs(kind string, now time.Time, n int) ([]Job, error)
	EndJob(j Job, done bool) error
	RenewLeases(now time.Time) (int, error)
	ReleaseLeases() error
	JobStats(now time.Time) ([]JobStat, error)
	ClaimOutgoing(prefix string, now time.Time) ([]*Outgoing, error)

	AddFollow(f Follow, eventID string, now time.Time) error
	RemoveFollow(game, channel, eventID string, now time.Time) (bool, error)
	Follows(game string) ([]Follow, error)

	SaveReview(r *Review, eventID string, now time.Time) error
	GameReview(game string) (*Review, error)

	OpenPuzzle(user, channel string) (st PuzzleState, ok bool, err error)
	PuzzleStats(variant, user string) (PuzzleStats, error)
	UpdatePuzzle(user, channel, variant, eventID string, now time.Time, change PuzzleChange) error
}

var (
	_ Backend = (*Store)(nil)
	_ Backend = (*Postgres)(nil)
)

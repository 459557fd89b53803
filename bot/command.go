// Package bot is the platform-neutral chat logic of topochess: challenges,
// games, turns, draws, help and rules texts. Adapters translate platform
// events into Commands and Replies back into platform calls.
package bot

import "time"

// User identifies a person on one platform.
type User struct {
	// ID is stable on the platform ("discord:1234", "telegram:42", "web:alice").
	ID string
	// Name is a display name, used in texts.
	Name string
	// Mention is how to mention the user in a message on the platform
	// ("<@1234>", "@alice"); Name when the platform has no mentions.
	Mention string
}

// Command is one thing a user did: a slash command with arguments, a
// button press or a choice.
type Command struct {
	// EventID identifies the platform event; a command whose EventID was
	// seen before is answered but not applied again. Empty: no dedupe.
	EventID string
	// Platform is "discord", "telegram", "web" or "console".
	Platform string
	// Channel is where it happened (a guild channel, a chat, a room),
	// prefixed by the platform like User.ID.
	Channel string
	// Server is the community the channel belongs to, prefixed by the
	// platform: a Discord guild, a Telegram group (its only channel), the
	// web site, the console; "" when there is none (direct messages).
	// Games are followed (/watch) only within one server.
	Server string
	User   User
	// Name is the command without slash: "challenge", "move", "board",
	// "moves", "resign", "draw", "games", "variants", "rules", "help",
	// "settings", "accept", "decline", "cancel". Button presses carry the
	// name and arguments their Button.Command gave.
	Name string
	// Args are the named options (Discord style: variant, color, opponent,
	// move, cell, game, orientation, ...). Text is the free text after the
	// command for platforms that type commands ("/move e2e4" → Text "e2e4").
	Args map[string]string
	Text string
	// Mentions are the users the message mentions or replies to (the
	// opponent of a challenge).
	Mentions []User
	// Time is when the event happened (the service's clock if zero).
	Time time.Time
}

// Button is a clickable choice attached to a reply. Pressing it sends a
// Command with Name and Args from the button, by the pressing user.
type Button struct {
	Label string
	// Command and Args are sent back when the button is pressed.
	Command string
	Args    map[string]string
	// Style: "primary", "secondary", "success", "danger".
	Style string
	// For restricts the button to one user ID ("" = anyone).
	For string
}

// Image is a picture attached to a reply.
type Image struct {
	Name string // file name, e.g. "board.png"
	PNG  []byte
	Alt  string // description for screen readers
	// Variant, Orientation and Game let the web adapter map clicks on the
	// picture back to cells.
	Variant     string
	Orientation string // "white" or "black"
	Game        string
}

// File is a document attached to a reply.
type File struct {
	Name string // e.g. "game1.pgn" (no "#": see fileName)
	Type string // MIME type
	Data []byte
}

// Reply is one message the bot sends.
type Reply struct {
	// Channel is where to send it (usually the command's channel).
	Channel string
	Text    string
	Image   *Image
	// File is a document sent with the text where the platform can (a
	// game's PGN); platforms without documents show the text alone.
	File    *File
	Buttons []Button
	// Mentions are user IDs to notify (the player to move).
	Mentions []string
	// Private: only the commanding user should see it (Discord ephemeral;
	// other platforms send it normally or privately as they can).
	Private bool
	// Error marks a refusal: nothing changed.
	Error bool
	// Failed marks, among Error replies, a failure on the bot's side
	// (storage, a panic, a damaged record) rather than a refusal of what
	// was asked.
	Failed bool
	// Supersedes names a message key whose buttons are now stale; Key
	// names this message so a later reply can supersede it.
	Key        string
	Supersedes []string
	// Outbox is the id of the reply's record in the outbox (bot/outbox.go):
	// the adapter reports its delivery with Service.Delivered. Empty: the
	// reply is not kept.
	Outbox string
	// Edits change the text of earlier messages along with this one (a
	// challenge now says who accepted it, a "thinking" line says the
	// computer has moved, a progress line counts on). A platform that
	// cannot edit, or no longer knows the key, leaves the message as it
	// was. A reply with Edits and nothing else sends no new message.
	Edits []Edit
}

// Edit replaces the text of the earlier message with that Key; its
// picture and buttons stay (Supersedes takes buttons away).
type Edit struct {
	Key  string
	Text string
}

// EditOnly reports whether a reply only edits earlier messages.
func (r *Reply) EditOnly() bool {
	return len(r.Edits) > 0 && r.Text == "" && r.Image == nil && len(r.Buttons) == 0 && r.File == nil
}

// Handler answers commands. bot.Service implements it; adapters depend
// only on this.
type Handler interface {
	// Handle applies a command and returns the replies to send, in order.
	// It never panics on user input and is safe for concurrent use.
	Handle(cmd Command) []Reply
}

// ContentType is the MIME type of the picture's bytes: image/gif for a
// game replay, image/png for boards.
func (i *Image) ContentType() string {
	if len(i.PNG) >= 6 && string(i.PNG[:3]) == "GIF" {
		return "image/gif"
	}
	return "image/png"
}

package discord

import "topochess/bot"

// MessageMemory keeps, across restarts, what the adapter needs to know
// about the messages it sent: which message carries a reply key (so a
// later reply can take its buttons away) and buttons too long for a
// custom_id. *bot.Service has it (bot/messages.go); without it both live
// in memory only.
type MessageMemory interface {
	SwapMessage(channel, key, message string) (previous string)
	TakeMessage(channel, key string) (message string)
	KeepButton(platform string, b bot.Button) (id string, ok bool)
	KeptButton(platform, id string) (bot.Button, bool)
}

package bot

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Time controls. A chat game is either correspondence — every move within
// a deadline, days or hours — or live with Fischer clocks: a base time
// per player and an increment added after each of their moves. Both
// clocks start when the challenge is accepted: in a chat the first move
// is as much the player's business as any other.
//
// Everything here is arithmetic on times passed in; the service supplies
// its clock, so tests never sleep.

// TimeControl is a parsed time argument. The zero value is untimed.
type TimeControl struct {
	// PerMove is the correspondence deadline for each move.
	PerMove time.Duration
	// Base and Increment are a Fischer clock's.
	Base, Increment time.Duration
}

// Timed reports whether the game has a time limit.
func (tc TimeControl) Timed() bool { return tc.PerMove > 0 || tc.Base > 0 }

// Live reports whether the game is played with Fischer clocks.
func (tc TimeControl) Live() bool { return tc.Base > 0 }

// Limits of what a player may ask for.
const (
	minPerMove = 10 * time.Minute
	maxPerMove = 30 * 24 * time.Hour
	maxBase    = 180 * time.Minute
	maxInc     = 180 * time.Second
)

const timeExamples = "time:1d (a day per move), time:12h, time:3d, or a live clock like time:5+3 (5 minutes each, 3 seconds added per move); time:none for no limit"

// ParseTimeControl reads the time argument of /challenge: "1d", "12h",
// "90m", "1d12h" for correspondence; "5+3" (minutes + seconds), "5" or
// "0.5+1" for Fischer clocks; "", "none", "off", "-" for untimed.
func ParseTimeControl(s string) (TimeControl, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "", "none", "off", "no", "-", "untimed", "unlimited":
		return TimeControl{}, nil
	}
	if len(s) > 20 {
		return TimeControl{}, fmt.Errorf("%q is not a time control I understand; try %s", s[:20]+"…", timeExamples)
	}
	if strings.ContainsAny(s, "dhm") && !strings.Contains(s, "+") {
		d, err := parseDays(s)
		if err != nil {
			return TimeControl{}, fmt.Errorf("%q is not a time control I understand; try %s", s, timeExamples)
		}
		if d < minPerMove || d > maxPerMove {
			return TimeControl{}, fmt.Errorf("a correspondence deadline must be between %s and %s per move", FormatDuration(minPerMove), FormatDuration(maxPerMove))
		}
		return TimeControl{PerMove: d}, nil
	}
	base, inc, hasInc := strings.Cut(s, "+")
	mins, err := strconv.ParseFloat(base, 64)
	if err != nil || mins != mins {
		return TimeControl{}, fmt.Errorf("%q is not a time control I understand; try %s", s, timeExamples)
	}
	secs := 0.0
	if hasInc {
		if secs, err = strconv.ParseFloat(inc, 64); err != nil || secs != secs {
			return TimeControl{}, fmt.Errorf("%q is not a time control I understand; try %s", s, timeExamples)
		}
	}
	if mins <= 0 || mins > maxBase.Minutes() {
		return TimeControl{}, fmt.Errorf("a live clock's base time must be more than 0 and at most %d minutes", int(maxBase.Minutes()))
	}
	if secs < 0 || secs > maxInc.Seconds() {
		return TimeControl{}, fmt.Errorf("the increment must be between 0 and %d seconds", int(maxInc.Seconds()))
	}
	return TimeControl{
		Base:      time.Duration(mins * float64(time.Minute)).Round(time.Second),
		Increment: time.Duration(secs * float64(time.Second)).Round(time.Millisecond),
	}, nil
}

// parseDays reads sums of d/h/m terms: "1d", "1d12h", "90m".
func parseDays(s string) (time.Duration, error) {
	var total time.Duration
	for s != "" {
		i := strings.IndexAny(s, "dhm")
		if i <= 0 {
			return 0, fmt.Errorf("bad duration")
		}
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil || n < 0 || n > 1000 {
			return 0, fmt.Errorf("bad duration")
		}
		unit := map[byte]time.Duration{'d': 24 * time.Hour, 'h': time.Hour, 'm': time.Minute}[s[i]]
		total += time.Duration(n * float64(unit))
		s = s[i+1:]
	}
	return total.Round(time.Minute), nil
}

// String is the canonical argument form: "1d", "12h", "5+3", "" untimed.
func (tc TimeControl) String() string {
	switch {
	case tc.PerMove > 0:
		return compactDuration(tc.PerMove)
	case tc.Base > 0:
		return strconv.FormatFloat(tc.Base.Minutes(), 'f', -1, 64) + "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
	}
	return ""
}

// Describe words the time control for players.
func (tc TimeControl) Describe() string {
	switch {
	case tc.PerMove > 0:
		return FormatDuration(tc.PerMove) + " per move"
	case tc.Base > 0:
		base := FormatDuration(tc.Base)
		if tc.Base%time.Minute == 0 {
			base = fmt.Sprintf("%d min", tc.Base/time.Minute)
		}
		return fmt.Sprintf("%s each + %s per move", base, FormatDuration(tc.Increment))
	}
	return "no time limit"
}

func compactDuration(d time.Duration) string {
	var b strings.Builder
	if days := d / (24 * time.Hour); days > 0 {
		fmt.Fprintf(&b, "%dd", days)
		d -= days * 24 * time.Hour
	}
	if h := d / time.Hour; h > 0 {
		fmt.Fprintf(&b, "%dh", h)
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		fmt.Fprintf(&b, "%dm", m)
	}
	return b.String()
}

// FormatDuration words a duration the way a player reads a clock:
// "2 days 3 h", "5 h 20 min", "4:05", "0:07".
func FormatDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d >= 24*time.Hour:
		days, h := d/(24*time.Hour), (d%(24*time.Hour))/time.Hour
		s := fmt.Sprintf("%d day", days)
		if days > 1 {
			s += "s"
		}
		if h > 0 {
			s += fmt.Sprintf(" %d h", h)
		}
		return s
	case d >= time.Hour:
		h, m := d/time.Hour, (d%time.Hour)/time.Minute
		if m > 0 {
			return fmt.Sprintf("%d h %d min", h, m)
		}
		return fmt.Sprintf("%d h", h)
	case d >= 10*time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	case d < time.Minute && d%time.Second != 0:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", d/time.Second)
	}
	d = d.Truncate(time.Second)
	return fmt.Sprintf("%d:%02d", d/time.Minute, (d%time.Minute)/time.Second)
}

// Clock is the time state of a game: what is stored with it.
type Clock struct {
	Control TimeControl
	// Left is each side's time (Fischer) at TurnStart, White first.
	Left [2]time.Duration
	// TurnStart is when the side to move began thinking.
	TurnStart time.Time
	// Reminded counts the reminders sent this turn (correspondence).
	Reminded int
}

// NewClock starts a game's clock at time now.
func NewClock(tc TimeControl, now time.Time) Clock {
	return Clock{Control: tc, Left: [2]time.Duration{tc.Base, tc.Base}, TurnStart: now}
}

// Event is something the clock asks the service to do.
type Event int

const (
	EventNone Event = iota
	// EventReminder: mention the player to move (half the deadline gone,
	// then 90 %).
	EventReminder
	// EventFlag: the player to move ran out of time.
	EventFlag
)

// reminderAt are the fractions of a correspondence deadline at which the
// player to move is reminded.
var reminderAt = []float64{0.5, 0.9}

// Deadline is when the side to move loses on time.
func (c Clock) Deadline(side int) time.Time {
	if c.Control.Live() {
		return c.TurnStart.Add(c.Left[side])
	}
	return c.TurnStart.Add(c.Control.PerMove)
}

// Next is the clock's next event for the side to move and when it is due;
// EventNone for an untimed game.
func (c Clock) Next(side int) (time.Time, Event) {
	if !c.Control.Timed() {
		return time.Time{}, EventNone
	}
	if !c.Control.Live() && c.Reminded < len(reminderAt) {
		f := reminderAt[c.Reminded]
		return c.TurnStart.Add(time.Duration(f * float64(c.Control.PerMove))), EventReminder
	}
	return c.Deadline(side), EventFlag
}

// Remaining is the time the side to move has left at time now.
func (c Clock) Remaining(side int, now time.Time) time.Duration {
	return c.Deadline(side).Sub(now)
}

// Flagged reports whether the side to move has run out of time at now.
func (c Clock) Flagged(side int, now time.Time) bool {
	return c.Control.Timed() && !now.Before(c.Deadline(side))
}

// Moved records that the side to move (side) moved at now, which must
// not be past its deadline (check Flagged first). The other side's turn
// begins.
func (c *Clock) Moved(side int, now time.Time) {
	if c.Control.Live() {
		c.Left[side] -= now.Sub(c.TurnStart)
		c.Left[side] += c.Control.Increment
	}
	c.TurnStart = now
	c.Reminded = 0
}

// Restart begins the current turn afresh at now (after a takeback): the
// player to move gets a full correspondence deadline again; live clocks
// keep the time they had.
func (c *Clock) Restart(now time.Time) {
	c.TurnStart = now
	c.Reminded = 0
}

// Due reports what is due at now for the side to move and marks
// reminders as sent. Several overdue reminders (after the bot was down)
// come as one; a passed deadline is a flag, whatever reminders remain.
func (c *Clock) Due(side int, now time.Time) Event {
	if !c.Control.Timed() {
		return EventNone
	}
	if c.Flagged(side, now) {
		return EventFlag
	}
	ev := EventNone
	for !c.Control.Live() && c.Reminded < len(reminderAt) {
		at, _ := c.Next(side)
		if now.Before(at) {
			break
		}
		c.Reminded++
		ev = EventReminder
	}
	return ev
}

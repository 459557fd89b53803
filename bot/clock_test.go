package bot

import (
	"strings"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	cases := []struct {
		in      string
		want    TimeControl
		str     string
		errPart string
	}{
		{"", TimeControl{}, "", ""},
		{"none", TimeControl{}, "", ""},
		{"1d", TimeControl{PerMove: 24 * time.Hour}, "1d", ""},
		{"3D", TimeControl{PerMove: 72 * time.Hour}, "3d", ""},
		{"12h", TimeControl{PerMove: 12 * time.Hour}, "12h", ""},
		{"1d12h", TimeControl{PerMove: 36 * time.Hour}, "1d12h", ""},
		{"90m", TimeControl{PerMove: 90 * time.Minute}, "1h30m", ""},
		{"5+3", TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, "5+3", ""},
		{"5", TimeControl{Base: 5 * time.Minute}, "5+0", ""},
		{"0.5+1", TimeControl{Base: 30 * time.Second, Increment: time.Second}, "0.5+1", ""},
		{"1m", TimeControl{}, "", "between 10 min"},
		{"31d", TimeControl{}, "", "between"},
		{"0+3", TimeControl{}, "", "more than 0"},
		{"500+3", TimeControl{}, "", "at most 180"},
		{"5+-3", TimeControl{}, "", "between 0"},
		{"5+999", TimeControl{}, "", "between 0"},
		{"blitz", TimeControl{}, "", "not a time control"},
		{"d", TimeControl{}, "", "not a time control"},
		{"NaN", TimeControl{}, "", "not a time control"},
		{"1e9d", TimeControl{}, "", "not a time control"},
		{strings.Repeat("1", 50), TimeControl{}, "", "not a time control"},
	}
	for _, tc := range cases {
		got, err := ParseTimeControl(tc.in)
		if tc.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errPart) {
				t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.errPart)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got != tc.want || got.String() != tc.str {
			t.Errorf("%q: got %+v (%q), want %+v (%q)", tc.in, got, got.String(), tc.want, tc.str)
		}
		// The canonical form reads back to the same control.
		if back, err := ParseTimeControl(got.String()); err != nil || back != got {
			t.Errorf("%q: %q reads back as %+v, %v", tc.in, got.String(), back, err)
		}
	}
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"1d", "5+3", "0.5+1", "90m", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			return
		}
		if tc.PerMove < 0 || tc.Base < 0 || tc.Increment < 0 || tc.PerMove > 0 && tc.Base > 0 {
			t.Fatalf("%q → %+v", s, tc)
		}
	})
}

func TestDescribe(t *testing.T) {
	for in, want := range map[string]string{"1d": "1 day per move", "5+3": "5 min each + 3 s per move", "0.5+0": "30 s each + 0 s per move", "none": "no time limit"} {
		tc, _ := ParseTimeControl(in)
		if got := tc.Describe(); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{3*24*time.Hour + 5*time.Hour, "3 days 5 h"},
		{24 * time.Hour, "1 day"},
		{5*time.Hour + 20*time.Minute, "5 h 20 min"},
		{30 * time.Minute, "30 min"},
		{4*time.Minute + 5*time.Second, "4:05"},
		{3 * time.Second, "3 s"},
		{1500 * time.Millisecond, "1.5 s"},
		{-time.Second, "0 s"},
	}
	for _, tc := range cases {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.d, got, tc.want)
		}
	}
}

// A day per move: reminders at 12 h and 21.6 h, the flag at 24 h; a move
// starts the other side's full day.
func TestCorrespondenceClock(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewClock(TimeControl{PerMove: 24 * time.Hour}, start)
	type step struct {
		at   time.Duration // since start
		move bool          // the side to move moves at this time
		want Event         // else: what Due reports
	}
	steps := []step{
		{at: time.Hour, want: EventNone},
		{at: 12*time.Hour - time.Second, want: EventNone},
		{at: 12 * time.Hour, want: EventReminder},
		{at: 13 * time.Hour, want: EventNone}, // sent already
		{at: 21*time.Hour + 36*time.Minute, want: EventReminder},
		{at: 23 * time.Hour, want: EventNone},
		{at: 23 * time.Hour, move: true}, // White moves; Black's day begins
		{at: 34 * time.Hour, want: EventNone},
		{at: 35 * time.Hour, want: EventReminder},
		{at: 44*time.Hour + 36*time.Minute, want: EventReminder},
		{at: 47*time.Hour - time.Second, want: EventNone},
		{at: 47 * time.Hour, want: EventFlag},
	}
	side := 0
	for i, s := range steps {
		now := start.Add(s.at)
		if s.move {
			if c.Flagged(side, now) {
				t.Fatalf("step %d: flagged before moving", i)
			}
			c.Moved(side, now)
			side ^= 1
			continue
		}
		if got := c.Due(side, now); got != s.want {
			t.Errorf("step %d (+%v): %v, want %v", i, s.at, got, s.want)
		}
	}
}

// Overdue reminders after downtime come as one; a passed deadline is a
// flag even if no reminder was sent.
func TestClockAfterDowntime(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewClock(TimeControl{PerMove: 10 * time.Hour}, start)
	if got := c.Due(0, start.Add(9*time.Hour+30*time.Minute)); got != EventReminder || c.Reminded != 2 {
		t.Errorf("got %v with %d reminded, want one reminder covering both", got, c.Reminded)
	}
	if at, ev := c.Next(0); ev != EventFlag || !at.Equal(start.Add(10*time.Hour)) {
		t.Errorf("next %v at %v, want the flag at +10h", ev, at)
	}
	d := NewClock(TimeControl{PerMove: 10 * time.Hour}, start)
	if got := d.Due(0, start.Add(11*time.Hour)); got != EventFlag {
		t.Errorf("got %v, want the flag", got)
	}
}

// 5+3: each move takes the thinking time and adds 3 s; the flag falls
// when the time left is used up; there are no reminders.
func TestFischerClock(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewClock(TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, start)
	now := start
	move := func(side int, think time.Duration) {
		now = now.Add(think)
		if c.Flagged(side, now) {
			t.Fatalf("side %d flagged at %v", side, now.Sub(start))
		}
		c.Moved(side, now)
	}
	move(0, 10*time.Second) // White: 300 − 10 + 3 = 293 s
	move(1, 60*time.Second) // Black: 300 − 60 + 3 = 243 s
	move(0, 3*time.Second)  // White: 293 − 3 + 3 = 293 s
	if c.Left != [2]time.Duration{293 * time.Second, 243 * time.Second} {
		t.Errorf("left %v, want [4m53s 4m3s]", c.Left)
	}
	// Black to move with 243 s: no reminder, the flag at exactly +243 s.
	if got := c.Due(1, now.Add(242*time.Second)); got != EventNone {
		t.Errorf("at 242 s: %v", got)
	}
	if r := c.Remaining(1, now.Add(200*time.Second)); r != 43*time.Second {
		t.Errorf("remaining %v, want 43s", r)
	}
	if at, ev := c.Next(1); ev != EventFlag || !at.Equal(now.Add(243*time.Second)) {
		t.Errorf("next %v at %v", ev, at.Sub(now))
	}
	if got := c.Due(1, now.Add(243*time.Second)); got != EventFlag {
		t.Errorf("at 243 s: %v, want the flag", got)
	}
}

func TestClockRestartAndUntimed(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewClock(TimeControl{PerMove: 2 * time.Hour}, start)
	c.Due(0, start.Add(90*time.Minute))
	c.Restart(start.Add(100 * time.Minute))
	if c.Reminded != 0 || !c.Deadline(0).Equal(start.Add(220*time.Minute)) {
		t.Errorf("after restart: %+v", c)
	}
	u := NewClock(TimeControl{}, start)
	if at, ev := u.Next(0); ev != EventNone || !at.IsZero() || u.Due(0, start.Add(1000*time.Hour)) != EventNone || u.Flagged(0, start.Add(1000*time.Hour)) {
		t.Error("an untimed clock has events")
	}
}

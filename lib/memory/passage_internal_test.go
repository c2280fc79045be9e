package memory

import "testing"

func TestBody(t *testing.T) {
	cases := []struct{ line, want string }{
		{"2024-05-03 18:00 Ken: camp hotel", "camp hotel"},
		{"2024-05-03 18-00 Ken: camp", "camp"},
		{"2024-05-03 18:00 Ken: camp: hotel", "camp: hotel"}, // the first ": " ends the sender
		{"2024-05-03 18:00 : camp", "camp"},                  // no sender
		{"2024-05-03 18:00 Ken: ", ""},
		// not a head: the line is all body
		{"camp", "camp"},
		{"", ""},
		{"2024/05-03 18:00 Ken: camp", "2024/05-03 18:00 Ken: camp"},
		{"2024-05/03 18:00 Ken: camp", "2024-05/03 18:00 Ken: camp"},
		{"2024-05-03T18:00 Ken: camp", "2024-05-03T18:00 Ken: camp"},
		{"2024-05-03 18.00 Ken: camp", "2024-05-03 18.00 Ken: camp"},
		{"2024-05-03 18:00 Ken camp", "2024-05-03 18:00 Ken camp"}, // no ": " after the head
	}
	for _, c := range cases {
		if got := body(c.line); got != c.want {
			t.Errorf("body(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

package memory

// GuessMe guesses which sender is the person whose history this is, from
// the exports themselves: the one sender who wrote in every chat (an
// export is always the owner's, so the owner is in each of them); with a
// single chat, the one sender of a two-person chat whose title does not
// name them (a 1:1 export is titled with the other person). "" when no
// single sender qualifies.
func (m *Memory) GuessMe() (string, error) {
	infos, err := m.Sources()
	if err != nil {
		return "", err
	}
	var common map[string]bool
	for _, si := range infos {
		msgs, err := m.st.Messages(si.Name)
		if err != nil {
			return "", err
		}
		senders := map[string]bool{}
		for _, msg := range msgs {
			if msg.Sender != "" {
				senders[msg.Sender] = true
			}
		}
		if len(infos) == 1 && si.Title != "" && len(senders) == 2 {
			for s := range senders {
				if NameMatches(s, si.Title) || NameMatches(si.Title, s) {
					delete(senders, s)
				}
			}
		}
		if common == nil {
			common = senders
			continue
		}
		for s := range common {
			if !senders[s] {
				delete(common, s)
			}
		}
	}
	if len(common) != 1 {
		return "", nil
	}
	for s := range common {
		return s, nil
	}
	return "", nil
}

package textfeat

// Tokens calls fn on each token of s in order: runs of letters, digits
// and apostrophes, lowercased, with "non-" split off as a token of its own
// ("non-artist" gives "non-", "artist"), and each full stop, question or
// exclamation mark as a token. Everything else separates tokens. The slice
// passed to fn is only valid during the call.
func Tokens(s string, fn func([]byte)) {
	var buf []byte
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isWordByte(c):
			j := i
			buf = buf[:0]
			for j < len(s) && isWordByte(s[j]) {
				buf = append(buf, lower(s[j]))
				j++
			}
			if j < len(s) && s[j] == '-' && string(buf) == "non" {
				fn(nonPrefix)
				i = j + 1
				continue
			}
			fn(buf)
			i = j
		case c == '.' || c == '?' || c == '!':
			fn(append(buf[:0], c))
			i++
		default:
			i++
		}
	}
}

var nonPrefix = []byte("non-")

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\'' || c >= 0x80
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

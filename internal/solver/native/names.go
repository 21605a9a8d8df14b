package native

// names numbers strings in order of first appearance. Lookups go through
// a small open-addressing table hashed on a string's length and three of
// its bytes, so that a lookup usually compares one string, where a map
// would hash the whole string.
type names struct {
	list  []string
	slots []int32 // index+1; 0 is empty; len is a power of two
}

// reset empties n, keeping its memory.
func (n *names) reset() {
	n.list = n.list[:0]
	clear(n.slots)
}

// intern returns the number of s, numbering it if it is new.
func (n *names) intern(s string) int {
	if len(n.slots) > 0 {
		mask := len(n.slots) - 1
		for i := nameHash(s) & mask; ; i = (i + 1) & mask {
			v := n.slots[i]
			if v == 0 {
				break
			}
			if n.list[v-1] == s {
				return int(v - 1)
			}
		}
	}
	n.list = append(n.list, s)
	if 2*len(n.list) > len(n.slots) {
		size := 32
		for size < 4*len(n.list) {
			size *= 2
		}
		n.slots = make([]int32, size)
		for j, t := range n.list {
			n.place(t, j)
		}
	} else {
		n.place(s, len(n.list)-1)
	}
	return len(n.list) - 1
}

func (n *names) place(s string, j int) {
	mask := len(n.slots) - 1
	i := nameHash(s) & mask
	for n.slots[i] != 0 {
		i = (i + 1) & mask
	}
	n.slots[i] = int32(j + 1)
}

func nameHash(s string) int {
	h := uint32(len(s)) * 0x9e3779b1
	if len(s) > 0 {
		h ^= uint32(s[0]) | uint32(s[len(s)/2])<<8 | uint32(s[len(s)-1])<<16
		h *= 0x85ebca6b
		h ^= h >> 15
	}
	return int(h)
}

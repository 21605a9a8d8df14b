package job

// Stratify bounds what the shards of stream st compute when its items take
// turns over len(budgets) strata, item i belonging to stratum
// i mod len(budgets): of each stratum s, its first budgets[s] items from
// st.Start. It sets st.ShardLimit just past the last of them and st.Drawn
// to allow exactly them; a merge finds none of the others, and
// Config.Missing says what each of those is (nothing, if its stratum is
// full by then; a shortfall of the shards otherwise).
func (st *Stream) Stratify(budgets []int) {
	n := len(budgets)
	if n == 0 {
		st.ShardLimit, st.Drawn = st.Start, func(int) bool { return false }
		return
	}
	start := st.Start
	limit := start
	for s, b := range budgets {
		if b > 0 {
			// Stratum s's items from start are start + r, start + r + n, …
			first := start + ((s-start)%n+n)%n
			limit = max(limit, first+(b-1)*n+1)
		}
	}
	budgets = append([]int(nil), budgets...)
	st.ShardLimit = limit
	st.Drawn = func(i int) bool { return i >= start && (i-start)/n < budgets[i%n] }
}

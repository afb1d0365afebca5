package task

// utilAcc integrates busy containers per machine type over time into
// buckets of width w from t0. When the buckets would exceed max, pairs are
// merged and w doubles, so the series always spans the run in at most max
// buckets; each change costs O(1) amortised plus the buckets it spans.
type utilAcc struct {
	t0, w float64
	max   int
	last  []float64   // per type: time of the last change
	b     [][]float64 // per type: busy container-seconds per bucket
	total []float64
}

func (u *utilAcc) reset(types int, t0 float64, max int) {
	u.t0, u.w, u.max = t0, 1, max
	if cap(u.last) < types {
		u.last = make([]float64, types)
		u.total = make([]float64, types)
	}
	u.last, u.total = u.last[:types], u.total[:types]
	for i := range u.last {
		u.last[i], u.total[i] = t0, 0
	}
	if len(u.b) < types {
		u.b = append(u.b, make([][]float64, types-len(u.b))...)
	}
	u.b = u.b[:types]
	for i := range u.b {
		u.b[i] = u.b[i][:0]
	}
}

// add records that type t had busy containers from its last change to now.
func (u *utilAcc) add(t int, busy int64, now float64) {
	from := u.last[t]
	u.last[t] = now
	if busy == 0 || !(now > from) {
		return
	}
	c := float64(busy)
	u.total[t] += c * (now - from)
	for now-u.t0 >= u.w*float64(u.max) {
		u.coarsen()
	}
	for from < now {
		k := int((from - u.t0) / u.w)
		end := u.t0 + float64(k+1)*u.w
		for end <= from { // rounding
			k++
			end = u.t0 + float64(k+1)*u.w
		}
		u.grow(t, k+1)
		u.b[t][k] += c * (min(end, now) - from)
		from = end
	}
}

func (u *utilAcc) grow(t, n int) {
	for len(u.b[t]) < n {
		u.b[t] = append(u.b[t], 0)
	}
}

func (u *utilAcc) coarsen() {
	for t, b := range u.b {
		h := (len(b) + 1) / 2
		for i := 0; i < h; i++ {
			v := b[2*i]
			if 2*i+1 < len(b) {
				v += b[2*i+1]
			}
			b[i] = v
		}
		u.b[t] = b[:h]
	}
	u.w *= 2
}

// series returns, per type, the busy share of its containers per bucket
// up to end.
func (u *utilAcc) series(dst [][]float64, types []typeRT, end float64) [][]float64 {
	for end-u.t0 > u.w*float64(u.max) {
		u.coarsen()
	}
	nb := 0
	if end > u.t0 {
		nb = int((end - u.t0) / u.w)
		if u.t0+float64(nb)*u.w < end {
			nb++
		}
	}
	if len(dst) < len(types) {
		dst = append(dst, make([][]float64, len(types)-len(dst))...)
	}
	dst = dst[:len(types)]
	for t := range types {
		capC := float64(types[t].count) * float64(types[t].cpn)
		d := resize(dst[t], nb)
		for k := range d {
			d[k] = 0
			if k < len(u.b[t]) && capC > 0 {
				w := u.w
				if k == nb-1 {
					w = end - (u.t0 + float64(k)*u.w) // the last bucket is partial
				}
				if w > 0 {
					d[k] = u.b[t][k] / (capC * w)
				}
			}
		}
		dst[t] = d
	}
	return dst
}

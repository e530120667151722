package storage

import (
	"encoding/binary"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// A packed summary is the columns of summaryCols as bytes, without what can
// be derived (the page URL from the slug) or shared (the values of columns
// that few listings differ in, kept once in a packTable):
//
//	flags byte (featured, launched)
//	votes, views, follows      uvarint each
//	launched_at                varint Unix seconds, when launched
//	slug, name, tagline, url, logo_url        packed strings, inline
//	stage, country, pricing_model, status, plan, launch_week,
//	primary category's slug and name          packed strings, shared
//
// A packed string is a uvarint x: x odd, the string is the table's entry
// x>>1; x even, x>>1 bytes of the string follow.
const (
	packFeatured = 1 << iota
	packLaunched
)

// packTableMax bounds the strings a packTable keeps: past it a value is
// written inline. The shared columns hold a few hundred values on a real
// site (countries, launch weeks, categories); a value leaves the table when
// the last summary referring to it is forgotten with its chunk (unref).
const packTableMax = 4096

// packTable keeps each shared value once and numbers it. A value is kept
// while a packed summary in the arena refers to it: refs counts the
// references of the summaries written (pack) less those forgotten with their
// chunk or never written (unref), and a value no summary refers to any more
// leaves the table, its number reused (free), so that values of forgotten
// summaries (a past launch week, a renamed category's old name) do not fill
// the table for good.
type packTable struct {
	ids  map[string]uint32
	strs []string
	refs []uint32
	free []uint32 // numbers of strs no summary refers to
}

// reset forgets every value: no packed summary refers to one any more.
func (t *packTable) reset() { t.ids, t.strs, t.refs, t.free = nil, nil, nil, nil }

// unref takes back the references of a packed summary: its chunk is
// forgotten, or it was packed and not written.
func (t *packTable) unref(body []byte) {
	flags, body := body[0], body[1:]
	heads := 3 // votes, views, follows
	if flags&packLaunched != 0 {
		heads++ // launched_at
	}
	next := func() uint64 {
		x, n := binary.Uvarint(body)
		body = body[n:]
		return x
	}
	for range heads {
		next()
	}
	for range 5 + 8 { // slug, name, tagline, url, logo_url (inline), the shared columns
		x := next()
		if x&1 == 0 {
			body = body[x>>1:]
			continue
		}
		id := uint32(x >> 1)
		if t.refs[id]--; t.refs[id] == 0 {
			delete(t.ids, t.strs[id])
			t.strs[id] = ""
			t.free = append(t.free, id)
		}
	}
}

// appendString appends s packed, shared when shared is set and the table has
// (or has room for) it.
func (t *packTable) appendString(buf []byte, s string, shared bool) []byte {
	if shared {
		id, ok := t.ids[s]
		if !ok && (len(t.free) > 0 || len(t.strs) < packTableMax) {
			if t.ids == nil {
				t.ids = map[string]uint32{}
			}
			if n := len(t.free); n > 0 {
				id, t.free = t.free[n-1], t.free[:n-1]
				t.strs[id] = s
			} else {
				id = uint32(len(t.strs))
				t.strs, t.refs = append(t.strs, s), append(t.refs, 0)
			}
			t.ids[s], ok = id, true
		}
		if ok {
			t.refs[id]++
			return binary.AppendUvarint(buf, uint64(id)<<1|1)
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(s))<<1)
	return append(buf, s...)
}

// pack appends the summary of r to buf.
func (t *packTable) pack(buf []byte, r *summaryRow) []byte {
	var flags byte
	if r.featured {
		flags |= packFeatured
	}
	if r.launchedAt.Valid {
		flags |= packLaunched
	}
	buf = append(buf, flags)
	buf = binary.AppendUvarint(buf, uint64(max(r.votes, 0)))
	buf = binary.AppendUvarint(buf, uint64(max(r.views, 0)))
	buf = binary.AppendUvarint(buf, uint64(max(r.follows, 0)))
	if r.launchedAt.Valid {
		buf = binary.AppendVarint(buf, r.launchedAt.Int64)
	}
	for _, s := range [...]string{r.slug, r.name, r.tagline, r.url, r.logo} {
		buf = t.appendString(buf, s, false)
	}
	for _, s := range [...]string{r.stage, r.country, r.pricing, r.status, r.plan, r.week, r.catSlug, r.catName} {
		buf = t.appendString(buf, s, true)
	}
	return buf
}

// packable reports whether pack keeps every value of r: counters are never
// negative in the database, but a summary that would not come back as it
// went in is read from the database instead of kept.
func packable(r *summaryRow) bool {
	return r.votes >= 0 && r.views >= 0 && r.follows >= 0
}

// unpack decodes a summary packed by pack, all but its page URL (pageURLs).
// body is a string holding the packed bytes (copied out of the arena with
// the page's others), so that the summary's strings share it instead of
// allocating each; the launch time and the category, when it has them, are
// written to at and cat, which the summary then points to.
func (t *packTable) unpack(body string, at *time.Time, cat *domain.CategoryRef) domain.ListingSummary {
	p := packReader{s: body}
	flags := p.s[0]
	p.s = p.s[1:]
	var ls domain.ListingSummary
	ls.Featured = flags&packFeatured != 0
	ls.Votes, ls.Views, ls.Follows = int(p.uvarint()), int(p.uvarint()), int(p.uvarint())
	if flags&packLaunched != 0 {
		*at = time.Unix(p.varint(), 0).UTC()
		ls.LaunchedAt = at
	}
	ls.Slug, ls.Name, ls.Tagline, ls.URL, ls.LogoURL = p.str(t), p.str(t), p.str(t), p.str(t), p.str(t)
	ls.Stage, ls.Country, ls.PricingModel, ls.Status, ls.Plan, ls.LaunchWeek = p.str(t), p.str(t), p.str(t), p.str(t), p.str(t), p.str(t)
	if slug, name := p.str(t), p.str(t); slug != "" {
		*cat = domain.CategoryRef{Slug: slug, Name: name, Primary: true}
		ls.PrimaryCategory = cat
	}
	return ls
}

// packReader reads a packed summary from the front of s.
type packReader struct{ s string }

func (p *packReader) uvarint() uint64 {
	var v uint64
	for shift := 0; ; shift += 7 {
		b := p.s[0]
		p.s = p.s[1:]
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
}

func (p *packReader) varint() int64 {
	u := p.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (p *packReader) str(t *packTable) string {
	x := p.uvarint()
	if x&1 != 0 {
		return t.strs[x>>1]
	}
	n := int(x >> 1)
	s := p.s[:n]
	p.s = p.s[n:]
	return s
}

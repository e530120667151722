//go:build e2e

package main

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_LogoNeverBroken: a listing whose logo URL points at a host
// that does not exist shows its monogram (its initial on its colour), not a
// broken-image icon, in its row on the home page and on its own page; a
// logo that loads covers the monogram. The logo box is compared, as pixels,
// with the same box once the image is taken out of the page: for the dead
// logo they look the same, for the one that loads they do not.
func TestBrowser_LogoNeverBroken(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	_, origin, key, data := browserServeData(t)
	var week struct {
		Items []struct {
			Listing struct {
				Slug string `json:"slug"`
			} `json:"listing"`
		} `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/launches/weeks/this", key, nil, &week); st != 200 || len(week.Items) < 2 {
		t.Fatalf("GET /v1/launches/weeks/this: %d, %d items", st, len(week.Items))
	}
	dead, good := week.Items[0].Listing.Slug, week.Items[1].Listing.Slug
	const deadURL = "https://logo.invalid/logo.png" // .invalid never resolves (RFC 6761)
	goodURL := origin + "/static/favicon.svg"       // a logo that loads (same origin)
	db, err := storage.Open(filepath.Join(data, "launchdir.db"), storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for slug, u := range map[string]string{dead: deadURL, good: goodURL} {
		if n, err := db.UpdateRows(ctx, "listings", map[string]any{"logo_url": u}, map[string]any{"slug": slug}); err != nil || n != 1 {
			t.Fatalf("set the logo of %s: %d rows, %v", slug, n, err)
		}
	}
	db.Close()

	row := func(slug string) string { return ".rows > li:has(a.name[href='/listings/" + slug + "']) .logo" }
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			for _, pg := range []struct{ step, path, dead, good string }{
				{"home", "/", row(dead), row(good)},
				{"listing", "/listings/" + dead, "header.profile .logo", ""},
			} {
				p.Go(origin + pg.path)
				broken := p.BrokenImages() // waits for every image to load or fail
				if len(broken) == 0 || slices.ContainsFunc(broken, func(u string) bool { return u != deadURL }) {
					t.Fatalf("%s: images that did not load: %q, want the test's dead logo %s only", pg.step, broken, deadURL)
				}
				p.Shot(pg.step + "-logos")
				if d := logoChange(t, p, pg.dead); d > 0.03 {
					t.Errorf("%s: the dead logo's box differs from its monogram in %.0f%% of its pixels (a broken-image icon?)", pg.step, d*100)
				}
				if pg.good != "" {
					if d := logoChange(t, p, pg.good); d < 0.5 {
						t.Errorf("%s: the loaded logo differs from its monogram in only %.0f%% of its pixels: it does not cover it", pg.step, d*100)
					}
				}
				p.TakeConsoleErrors() // the dead logo's failed request is the point of this test
			}
		})
	}
}

// logoChange returns the share of the pixels of the logo box sel that
// change when its image is taken out of the page (leaving the monogram).
func logoChange(t *testing.T, p *browsertest.Page, sel string) float64 {
	t.Helper()
	with := decodePNG(t, p.ShotOf(sel))
	if !browsertest.Eval[bool](p, `(() => { const i = document.querySelector("`+sel+` img"); if (!i) return false; i.remove(); return true; })()`) {
		t.Fatalf("no image in %s", sel)
	}
	without := decodePNG(t, p.ShotOf(sel))
	r := with.Bounds()
	if r != without.Bounds() {
		t.Fatalf("%s changed size: %v, %v", sel, r, without.Bounds())
	}
	diff := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			a, b := color.NRGBAModel.Convert(with.At(x, y)).(color.NRGBA), color.NRGBAModel.Convert(without.At(x, y)).(color.NRGBA)
			if far(a.R, b.R) || far(a.G, b.G) || far(a.B, b.B) {
				diff++
			}
		}
	}
	return float64(diff) / float64(r.Dx()*r.Dy())
}

// far reports whether two colour channels differ visibly.
func far(a, b uint8) bool { return int(a)-int(b) > 48 || int(b)-int(a) > 48 }

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	im, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return im
}

//go:build e2e

package browsertest

import (
	"bytes"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestHarness drives the real Chromium against two local pages: a clean
// one passes CheckClean's checks, and a page with a broken image and a
// console error has both reported; a form is filled and submitted by a
// click; each step leaves a screenshot file.
func TestHarness(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/clean", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>clean</title><h1>Hello</h1>
<img src="/dot.svg" alt="" width="10" height="10">
<form method="post" action="/done"><select name="country"><option value="">-</option><option value="DE">Germany</option></select><input name="name"><button type="submit">Go</button></form>`))
	})
	mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/dot.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`))
	})
	mux.HandleFunc("/done", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		http.Redirect(w, r, "/result?c="+r.PostForm.Get("country")+"&n="+r.PostForm.Get("name"), http.StatusSeeOther)
	})
	mux.HandleFunc("/result", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>result</title><p id="r">` + r.URL.Query().Get("c") + " " + r.URL.Query().Get("n") + `</p>`))
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><title>broken</title><img src="/missing.png" alt="x"><script>console.error("boom")</script>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := Start(t)
	p := b.NewPage(t, Desktop)
	p.Go(srv.URL + "/clean")
	if got := p.Text("h1"); got != "Hello" {
		t.Errorf("h1 = %q", got)
	}
	shot := p.Shot("clean")
	if st, err := os.Stat(shot); err != nil || st.Size() == 0 || !strings.HasSuffix(shot, "01-clean-desktop.jpg") {
		t.Errorf("screenshot %s: %v", shot, err)
	} else if b, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}) {
		t.Errorf("screenshot %s is not a JPEG (starts %q): %v", shot, b[:min(len(b), 8)], err)
	}
	p.CheckClean("clean page")
	p.Fill("select[name=country]", "DE")
	p.Fill("input[name=name]", "Ada")
	p.Click("button[type=submit]")
	if got := p.Text("#r"); got != "DE Ada" {
		t.Errorf("after submitting the form: %q, want %q", got, "DE Ada")
	}

	ph := b.NewPage(t, Phone)
	ph.Go(srv.URL + "/broken")
	if w := Eval[int](ph, `window.innerWidth`); w != 390 {
		t.Errorf("phone innerWidth = %d, want 390", w)
	}
	ph.Shot("broken")
	if imgs := ph.BrokenImages(); len(imgs) != 1 || !strings.HasSuffix(imgs[0], "/missing.png") {
		t.Errorf("broken images = %q, want /missing.png", imgs)
	}
	errs := ph.TakeConsoleErrors()
	if !slices.ContainsFunc(errs, func(m string) bool { return strings.Contains(m, `"boom"`) }) ||
		!slices.ContainsFunc(errs, func(m string) bool { return strings.Contains(m, "404") }) {
		t.Errorf("console errors = %q, want the console.error and the failed image load", errs)
	}
}

// TestShot_FullPageAtCSSPixels: Shot captures the whole page, beyond the
// viewport and whatever the scroll position, with one image pixel per CSS
// pixel, also on the phone, whose page is laid out at two device pixels per
// CSS pixel: a 390x3000 page scrolled to its middle is a 390x3000 JPEG whose
// top is the page's blue top and whose bottom is its red bottom.
func TestShot_FullPageAtCSSPixels(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><title>tall</title>
<style>body { margin: 0 } div { height: 1000px } #top { background: #00f } #mid { background: #fff } #bottom { background: #f00 }</style>
<div id="top"></div><div id="mid"></div><div id="bottom"></div>`))
	}))
	defer srv.Close()

	p := Start(t).NewPage(t, Phone)
	p.Go(srv.URL + "/")
	if r := Eval[float64](p, `devicePixelRatio`); r != 2 {
		t.Errorf("the phone's devicePixelRatio = %v, want 2", r)
	}
	Eval[bool](p, `(window.scrollTo(0, 1200), true)`)
	path := p.Shot("tall")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := jpeg.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != 390 || b.Dy() != 3000 {
		t.Fatalf("screenshot %s is %dx%d, want 390x3000 (the whole page, a pixel per CSS pixel)", path, b.Dx(), b.Dy())
	}
	for _, c := range []struct {
		y       int
		want    string
		r, g, b uint32
	}{{10, "blue", 0, 0, 0xffff}, {1500, "white", 0xffff, 0xffff, 0xffff}, {2990, "red", 0xffff, 0, 0}} {
		r, g, b, _ := img.At(195, c.y).RGBA()
		if diff(r, c.r) > 0x1000 || diff(g, c.g) > 0x1000 || diff(b, c.b) > 0x1000 {
			t.Errorf("pixel (195, %d) of %s is rgb(%d, %d, %d), want %s", c.y, path, r>>8, g>>8, b>>8, c.want)
		}
	}
}

// diff is |a-b|.
func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

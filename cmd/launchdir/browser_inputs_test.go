//go:build e2e

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// unstyledInputs lists the text-entry inputs (every <input> type but the
// ones that are not boxes to type in) that page p shows without the site's
// input look: no stylesheet rule (or style attribute) sets their width and
// the layout does not stretch them, so the browser's default (about 20
// characters) decides it; no padding or rounded border of the site's
// fields; or a box that runs past the right edge of the window. Inputs not
// drawn (a closed <details>) are left out.
func unstyledInputs(p *browsertest.Page) []string {
	return browsertest.Eval[[]string](p, `(() => {
		const notText = new Set(['hidden', 'checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file', 'range', 'color']);
		// A box the layout sizes (a grid or flex item stretched) is sized
		// too: its width differs from a bare input's of its type and size.
		const bare = (el) => {
			const probe = document.createElement('input');
			probe.type = el.type;
			if (el.hasAttribute('size')) probe.size = el.size;
			const host = document.createElement('div');
			host.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden';
			host.appendChild(probe);
			document.body.appendChild(host);
			const w = probe.getBoundingClientRect().width;
			host.remove();
			return w;
		};
		const sized = (el) => {
			if (el.style.width || el.style.flexBasis) return true;
			if (Math.abs(el.getBoundingClientRect().width - bare(el)) > 1) return true;
			const walk = (rules) => {
				for (const r of rules) {
					if (r.media && r.cssRules) { if (matchMedia(r.media.mediaText).matches && walk(r.cssRules)) return true; continue; }
					if (r.selectorText && (r.style.width || r.style.flexBasis) && el.matches(r.selectorText)) return true;
				}
				return false;
			};
			for (const s of document.styleSheets) { let rules; try { rules = s.cssRules; } catch (e) { continue; } if (walk(rules)) return true; }
			return false;
		};
		const out = [];
		for (const el of document.querySelectorAll('main input')) {
			const type = (el.getAttribute('type') || 'text').toLowerCase();
			if (notText.has(type)) continue;
			const box = el.getBoundingClientRect();
			if (box.width === 0 && box.height === 0) continue;
			const cs = getComputedStyle(el);
			const what = (el.form && el.form.getAttribute('action') || '') + ' ' + (el.name || el.id) + ' (' + type + ')';
			if (!sized(el)) out.push(what + ': no width rule, ' + Math.round(box.width) + ' px by default');
			if (cs.borderTopLeftRadius !== '6px' || parseFloat(cs.paddingLeft) < 6) out.push(what + ': not the site field look (radius ' + cs.borderTopLeftRadius + ', padding ' + cs.paddingLeft + ')');
			if (box.right > document.documentElement.clientWidth + 0.5) out.push(what + ': its right edge at ' + Math.round(box.right) + ' px, past the window (' + document.documentElement.clientWidth + ' px)');
		}
		return out;
	})()`)
}

// TestBrowser_ConsoleInputsSized: every text box of the console (/admin and
// each of its pages, a listing's, a person's and a category's page, the blog
// editor, the interview) and of the account page has a width from the
// stylesheet, the site's field look (padding, rounded border) and fits the
// window, at desktop and phone width. The audit log's filter (Who, Action,
// Target, the dates) and the trophies' Note and Reason were the browser's
// default boxes, narrower than the console's other fields and unpadded.
func TestBrowser_ConsoleInputsSized(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	s.signIn(t, origin, "someone@example.com") // a person on /admin/people
	pages := []struct {
		path, follow string
		shot         bool
	}{
		{"/admin", "", false},
		{"/admin/audit", "", true},
		{"/admin/trophies?state=unconfirmed", "", true},
		{"/admin/trophies?state=pending", "", false},
		{"/admin/team", "", false},
		{"/admin/people", "main a[href^='/admin/people/']", false},
		{"/admin/settings", "", false},
		{"/admin/queue", "", false},
		{"/admin/listings", "main a[href^='/admin/listings/']", false},
		{"/admin/categories", "main a[href^='/admin/categories/']", false},
		{"/admin/ratings", "", false},
		{"/admin/programmes", "", false},
		{"/admin/revenue", "", false},
		{"/admin/blog", "", false},
		{"/admin/blog/new", "", false},
		{"/admin/interview", "", false},
		{"/account", "", true},
	}
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "team@example.com")
			checked := 0
			check := func(what string) (failed bool) {
				bad := unstyledInputs(p)
				checked += browsertest.Eval[int](p, `document.querySelectorAll('main input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit])').length`)
				if len(bad) > 0 {
					t.Errorf("%s (%s):\n  %s", what, vp.Name, strings.Join(bad, "\n  "))
				}
				return len(bad) > 0
			}
			for i, pg := range pages {
				p.Go(origin + pg.path)
				// A screenshot of each page the check failed on,
				// and of the pages whose boxes had no look of their own.
				if check(pg.path) || pg.shot {
					p.Shot(fmt.Sprintf("%02d-%s", i, strings.Trim(strings.NewReplacer("/", "-", "?", "-", "=", "-").Replace(pg.path), "-")))
				}
				if pg.follow != "" && p.Count(pg.follow) > 0 {
					p.Click(pg.follow)
					if check(p.URL()) {
						p.Shot(fmt.Sprintf("%02d-detail", i))
					}
				}
			}
			if checked < 20 {
				t.Errorf("only %d text boxes on the console and account pages: the pages did not draw their forms", checked)
			}
		})
	}
}

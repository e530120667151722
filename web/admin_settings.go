package web

import (
	"html/template"
	"net/http"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/web/shell"
)

// The site settings (/admin/settings): admins only (docs/console.md "Site
// settings"). One form with every setting; a post validates every field,
// shows each problem next to its field (400) and changes nothing when any
// is wrong.

// settingsPage is the data of admin_settings.html.
type settingsPage struct {
	Email    string
	Settings []settingField
	// Problem is set when the form was refused; Saved after a change.
	Problem string
	Saved   bool
}

// settingField is one setting on the form: what the form shows in the
// field (the value in effect, or what was typed in a refused form) and its
// problem.
type settingField struct {
	console.SettingView
	Shown, Problem string
}

// parseSettingsPages parses the templates of routeSettings's pages (pageSet).
func parseSettingsPages(pages map[string]*template.Template) {
	t := template.Must(shell.Layout().Funcs(funcs).ParseFS(templateFS, "templates/parts.html"))
	pages["admin_settings"] = template.Must(t.ParseFS(templateFS, "templates/admin_settings.html"))
}

// routeSettings registers the settings page.
func (h *handler) routeSettings(mux *http.ServeMux) {
	mux.Handle("GET /admin/settings", h.adminRoute(console.RoleAdmin, false, h.settingsHome))
	mux.Handle("POST /admin/settings", h.adminRoute(console.RoleAdmin, true, h.settingsSave))
}

// showSettings renders the page; typed and problems (by key) are those of a
// refused form.
func (h *handler) showSettings(w http.ResponseWriter, r *http.Request, email string, status int, typed, problems map[string]string) {
	views, err := h.console.SiteSettings(r.Context())
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	p := &settingsPage{Email: email, Saved: r.URL.Query().Get("saved") == "1" && status == statusOK}
	for _, v := range views {
		f := settingField{SettingView: v, Shown: v.Value, Problem: problems[v.Key]}
		if t, ok := typed[v.Key]; ok {
			f.Shown = t
		}
		p.Settings = append(p.Settings, f)
	}
	if len(problems) > 0 {
		p.Problem = "Nothing was changed: correct the fields marked below."
	}
	h.render(w, r, status, "admin_settings", "Site settings", "", p)
}

// settingsHome is GET /admin/settings.
func (h *handler) settingsHome(w http.ResponseWriter, r *http.Request, email string) {
	h.showSettings(w, r, email, statusOK, nil, nil)
}

// settingsSave is POST /admin/settings: every setting's field; a field
// left out of the form keeps its value.
func (h *handler) settingsSave(w http.ResponseWriter, r *http.Request, email string) {
	values := map[string]string{}
	for _, d := range console.SettingDefs {
		if _, ok := r.PostForm[d.Key]; ok {
			values[d.Key] = r.PostForm.Get(d.Key)
		}
	}
	err := h.console.SetSiteSettings(r.Context(), email, values)
	if problems := invalidFields(err); problems != nil {
		h.showSettings(w, r, email, pageStatus(domain.EInvalid), values, problems)
		return
	}
	if err != nil {
		h.serviceError(w, r, err)
		return
	}
	h.log.Info("web: admin saved the site settings", "admin", email)
	http.Redirect(w, r, "/admin/settings?saved=1", statusSeeOther)
}

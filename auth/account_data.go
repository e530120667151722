package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// AccountData is what a person's own-data pages need from the storage
// (*storage.DB has both, docs/privacy.md): everything stored about an
// account, and erasing it.
type AccountData interface {
	ExportAccount(ctx context.Context, userID int64) (*domain.AccountExport, error)
	DeleteAccount(ctx context.Context, userID int64) (*domain.AccountDeletion, error)
}

// DeletedPath is where deleting an account sends the browser: the home
// page, which says the account was deleted.
const DeletedPath = "/?account=deleted"

// registerAccountData adds /account/export and /account/delete when
// Config.Account is set.
func (a *Auth) registerAccountData(mux *http.ServeMux) {
	if a.cfg.Account == nil {
		return
	}
	mux.HandleFunc("GET /account/export", a.requireSession(a.accountExport))
	mux.HandleFunc("GET /account/delete", a.requireSession(a.accountDeletePage))
	mux.Handle("POST /account/delete", form(a.requireSession(a.accountDelete)))
}

// accountExport downloads everything stored about the signed-in account
// as one JSON file.
func (a *Auth) accountExport(w http.ResponseWriter, r *http.Request) {
	u, _, _ := userFrom(r.Context())
	x, err := a.cfg.Account.ExportAccount(r.Context(), u.ID)
	if err != nil {
		a.log.Error("export account", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "Your data could not be exported. Try again in a moment.")
		return
	}
	body, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		a.log.Error("export account", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "Your data could not be exported. Try again in a moment.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="launchdir-account-%d.json"`, u.ID))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	a.log.Info("account exported", "user", u.ID)
	w.Write(append(body, '\n'))
}

// deleteData is the data of account_delete.html.
type deleteData struct {
	User    User
	CSRF    string
	Confirm string // the typed confirmation, after an error
	Error   string
}

func (a *Auth) accountDeletePage(w http.ResponseWriter, r *http.Request) {
	u, s, _ := userFrom(r.Context())
	a.render(w, r, statusOK, "account_delete.html", deleteData{User: u, CSRF: s.CSRF})
}

// confirmWord is what an account without an email address (signed in by
// OpenID Connect without one) types to confirm.
const confirmWord = "delete my account"

// accountDelete erases the account once the person typed its email
// address, then signs the browser out.
func (a *Auth) accountDelete(w http.ResponseWriter, r *http.Request) {
	u, ok := a.checkForm(w, r)
	if !ok {
		return
	}
	_, s, _ := userFrom(r.Context())
	typed := strings.TrimSpace(r.PostFormValue("confirm"))
	want := u.Email
	if want == "" {
		want = confirmWord
	}
	if !strings.EqualFold(typed, want) {
		msg := "Type your email address exactly as shown to confirm."
		if u.Email == "" {
			msg = fmt.Sprintf("Type %q to confirm.", confirmWord)
		}
		a.render(w, r, pageStatus(domain.EInvalid), "account_delete.html", deleteData{User: u, CSRF: s.CSRF, Confirm: typed, Error: msg})
		return
	}
	res, err := a.cfg.Account.DeleteAccount(r.Context(), u.ID)
	if err != nil {
		a.log.Error("delete account", "user", u.ID, "err", err)
		a.problemPage(w, r, domain.EInternal, "Something went wrong", "Your account could not be deleted. Nothing was erased; try again in a moment.")
		return
	}
	a.log.Info("account deleted", "user", u.ID, "listings_deleted", res.ListingsDeleted, "listings_hidden", res.ListingsHidden,
		"listings_handed_over", res.ListingsHandedOver, "orders_kept", res.OrdersKept)
	a.endSession(w, r)
	http.Redirect(w, r, DeletedPath, statusSeeOther)
}

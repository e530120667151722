package auth

import (
	"net/http"

	"github.com/launchdir/launchdir/domain"
)

// A suspended account (docs/console.md "People") cannot sign in: its
// sessions are signed out (currentSession), its tokens and keys refused
// (Verify) and no token is issued to it (issueTokens).

// refuseSuspended shows the page that says the account is suspended and
// reports true when u is suspended; the sign-in then stops.
func (a *Auth) refuseSuspended(w http.ResponseWriter, r *http.Request, u User) bool {
	if !u.Suspended {
		return false
	}
	a.log.Info("sign-in refused: the account is suspended", "user", u.ID)
	a.problemPage(w, r, domain.EForbidden, "Account suspended",
		"This account is suspended by the site team, so it cannot sign in. Write to the site team if you think this is a mistake.")
	return true
}

package tools

import "github.com/launchdir/launchdir/domain"

// AccountOperations are the signed-in operations about the account itself.
func AccountOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "get_account", Method: "GET", Path: "/me", Scope: domain.ScopeAccountRead, Tag: "Account",
			Title: "Who am I", ReadOnly: true, IdempotentHint: true,
			Summary: "Returns the signed-in account: id, email, name, how this request signed in (an OAuth access token or an " +
				"API key), the scopes it may use, the OAuth client or API key, and the account page where the person manages API " +
				"keys and connected apps. Needs sign-in (scope account:read); without it the call answers 401 and the client " +
				"should start the OAuth sign-in.",
		}, (*domain.Service).GetAccount),
	}
}

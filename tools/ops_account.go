package tools

import "github.com/launchdir/launchdir/domain"

// AccountOperations are the signed-in operations about the account itself.
func AccountOperations() []Operation {
	return []Operation{
		Op(Spec{
			Name: "get_account", Method: "GET", Path: "/me", Scope: domain.ScopeAccountRead, Tag: "Account",
			Title: "Who am I", ReadOnly: true, IdempotentHint: true,
			Summary: "The signed-in account: email, name, how it signed in (OAuth or API key), its scopes and the account page. Use it to check sign-in.",
		}, (*domain.Service).GetAccount),
	}
}

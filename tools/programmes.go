package tools

import "github.com/launchdir/launchdir/domain"

// ProgrammeOperations are the award programmes to enter
// (docs/trophies.md), in the trophies toolset (Tag Trophies).
func ProgrammeOperations() []Operation {
	return []Operation{
		Op(publicRead(Spec{
			Name: "list_programmes", Path: "/programmes", Tag: "Trophies", Title: "List award programmes",
			Summary: "Award programmes of this directory, newest first: categories, eligibility, entry and voting windows, state.",
		}), (*domain.Service).ListProgrammes),

		Op(publicRead(Spec{
			Name: "get_programme", Path: "/programmes/{slug}", Tag: "Trophies", Title: "Get an award programme",
			Summary: "One programme with its entries and their counted votes in the voting window, and its winners once finished. People vote on its page, not through the API.",
		}), (*domain.Service).GetProgramme),

		Op(Spec{
			Name: "enter_programme", Method: "POST", Path: "/me/listings/{listing_id}/programmes", Scope: domain.ScopeListingsWrite,
			Idem: true, Status: 201, Tag: "Trophies", Title: "Enter a programme",
			Summary: "Enters your eligible listing in an award programme while its entry window is open.",
		}, (*domain.Service).EnterProgramme),

		Op(Spec{
			Name: "withdraw_programme_entry", Method: "DELETE", Path: "/me/listings/{listing_id}/programmes/{programme}", Scope: domain.ScopeListingsWrite,
			Idem: true, Tag: "Trophies", Title: "Withdraw a programme entry", Destructive: true,
			Summary: "Withdraws your listing from an award programme while its entry window is open.",
		}, (*domain.Service).WithdrawProgrammeEntry),
	}
}

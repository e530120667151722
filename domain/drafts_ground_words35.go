package domain

// The words of a pricing quote in Finnish, Danish, Hungarian, Romanian,
// Indonesian, Vietnamese and Greek (domain/extract reads these languages'
// free plans and monthly prices too; docs/drafts.md, "dev35 round"). Kept
// apart from PricingModels' literal so that these languages are one list.
func init() {
	free := []string{"ilmai", "ingyenes", "miễn phí", "δωρεάν"}
	PricingModels["free"] = append(PricingModels["free"], free...)
	PricingModels["freemium"] = append(PricingModels["freemium"], free...)
	PricingModels["subscription"] = append(PricingModels["subscription"],
		"/ kk", "/kk", "kuukau", "måned", "/ hó", "/hó", "havonta", "havi", "lună", "bulan", "tháng", "μήνα", "μηνιαία", "abonament", "tilaus", "előfizetés", "langganan", "συνδρομή")
}

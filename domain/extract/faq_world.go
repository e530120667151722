package extract

// faqHdrWorld: an FAQ heading in Norwegian, Finnish, Hungarian, Romanian,
// Vietnamese, Thai, Indonesian and Hebrew ("Ofte stilte spørsmål", "Usein
// kysytyt kysymykset", "Gyakori kérdések", "Întrebări frecvente", "Câu hỏi
// thường gặp", "คำถามที่พบบ่อย", "Pertanyaan yang Sering Diajukan", "שאלות
// נפוצות"); it adds to faqHdr.
const faqHdrWorld = `|ofte stilte spørsmål|spørsmål og svar|usein kysytyt kysymykset|kysymyksiä ja vastauksia|gyakori kérdések|gyakran ismételt kérdések|` +
	`întrebări frecvente|intrebari frecvente|câu hỏi thường gặp|hỏi đáp|คำถามที่พบบ่อย|pertanyaan yang sering diajukan|tanya jawab|שאלות נפוצות|שאלות ותשובות`

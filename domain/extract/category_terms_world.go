package extract

// categoryTermsWorld are words that show a product's category in languages
// no earlier list has (Norwegian, Finnish, Hungarian, Romanian, Vietnamese,
// Thai, Indonesian, Hebrew), more Japanese, Korean and Chinese ones, and
// English phrasings of kinds of product the other lists miss (a household
// budget, a novel-writing app), by slug; they add to categoryTermsMore.
// Same notation. Terms in Thai and Hebrew match inside longer words, as Han
// and Hangul do (termsRe): Thai does not separate words, and Hebrew joins
// prepositions to the word ("לניהול פניות").
var categoryTermsWorld = map[string][]string{
	"expense-tracking": {"household budget", "family budget", "budgeting app",
		"husholdningsbudsjett", "budsjettapp*", "utgifter", "kotitalouden budjetti", "kulujen seuranta", "kulut",
		"háztartási költségvetés", "családi költségvetés", "kiadások", "kiadásaid", "költségkövetés",
		"cheltuieli", "bugetul familiei", "buget familial", "quản lý chi tiêu", "sổ chi tiêu", "chi tiêu gia đình",
		"รายรับรายจ่าย", "บันทึกรายจ่าย", "pengeluaran", "anggaran rumah tangga", "catatan keuangan",
		"ניהול תקציב", "תקציב משפחתי", "ניהול הוצאות", "家計簿", "가계부", "記帳本", "记账本", "記帳app"},
	"online-courses": {"video courses", "video lessons", "kursy wideo", "kursów wideo", "platforma kursów", "videokurs*", "videokurz*", "nettkurs*", "verkkokurssi*", "online kurzus*", "online tanfolyam*", "cursuri online", "curs online",
		"khóa học trực tuyến", "khóa học online", "khoá học online", "คอร์สออนไลน์", "kursus online", "kelas online",
		"קורסים דיגיטליים", "קורס אונליין", "קורסים אונליין", "オンラインコース", "온라인 강좌", "線上課程", "线上课程", "開課", "开课"},
	"flashcards": {"gloser", "pugg*", "muistikortti*", "sanakortti*", "szókártyák", "tanulókártya*", "cartonașe", "carduri de memorare",
		"thẻ ghi nhớ", "thẻ từ vựng", "บัตรคำ", "แฟลชการ์ด", "kartu hafalan", "kartu belajar", "כרטיסיות",
		"單字卡", "閃卡", "字卡", "단어장"},
	"writing-assistants": {"novelists", "novel writing", "write your novel", "write your book", "writing app",
		"skriveprogram", "kirjoitussovellus", "regényírás*", "regényíró*", "aplicație de scriere", "romancieri",
		"viết tiểu thuyết", "เขียนนิยาย", "menulis novel", "כתיבת רומן", "כתיבת ספר",
		"小説執筆", "執筆アプリ", "小説を書", "소설 쓰기", "웹소설", "小說寫作", "写小说", "寫小說"},
	"task-management": {"oppgavestyring", "prosjektstyring", "tehtävänhallinta", "projektinhallinta", "feladatkezel*", "projektmenedzsment",
		"managementul sarcinilor", "gestionarea sarcinilor", "managementul proiectelor", "quản lý công việc", "quản lý dự án",
		"จัดการงาน", "จัดการโปรเจกต์", "คัมบัง", "manajemen tugas", "manajemen proyek", "ניהול משימות", "ניהול פרויקטים"},
	"crm": {"kundebehandling", "kunderegister", "asiakkuudenhallinta", "asiakashallinta", "ügyfélkezel*",
		"gestionarea clienților", "relația cu clienții", "quản lý khách hàng", "จัดการลูกค้า", "ลูกค้าสัมพันธ์",
		"kelola pelanggan", "manajemen pelanggan", "ניהול לקוחות"},
	"help-desk": {"kundeservice", "henvendelser", "asiakaspalvelu", "tukipyyn*", "ügyfélszolgálat*", "hibajegy*",
		"suport clienți", "tichete de suport", "chăm sóc khách hàng", "phiếu hỗ trợ", "ระบบตั๋ว", "บริการลูกค้า",
		"layanan pelanggan", "tiket dukungan", "ניהול פניות", "שירות לקוחות", "מוקד תמיכה", "צוות התמיכה"},
	"time-tracking": {"timeføring", "timeregistrering", "työajanseuranta", "tuntikirjanpito", "munkaidő-nyilvántartás", "időkövetés",
		"pontaj", "evidența timpului", "chấm công", "ลงเวลา", "บันทึกเวลาทำงาน", "absensi", "pelacakan waktu",
		"שעון נוכחות", "דיווח שעות"},
	"invoicing": {"laskutus*", "számlázó*", "számlázás", "hóa đơn", "ใบแจ้งหนี้", "ใบกำกับภาษี", "חשבוניות"},
	"accounting": {"regnskap*", "kirjanpito*", "könyvelés*", "contabilitate", "kế toán", "โปรแกรมบัญชี", "ทำบัญชี",
		"akuntansi", "pembukuan", "הנהלת חשבונות"},
	"calendar-scheduling": {"timebestilling", "ajanvaraus*", "időpontfoglal*", "programări online", "programare online",
		// staff rotas in the Nordic languages
		"turnusplan*", "vaktplan*", "skiftplan*", "schemaläggning", "personalschema*", "vagtplan*", "työvuorosuunnittelu", "työvuorolist*",
		"đặt lịch", "จองคิว", "นัดหมาย", "penjadwalan", "זימון תורים", "קביעת תורים"},
	"email-marketing": {"uutiskirje*", "sähköpostimarkkinointi", "hírlevél", "hírlevelek", "tiếp thị qua email", "อีเมลการตลาด",
		"דיוור", "ניוזלטר"},
	"live-chat": {"chat på nettsiden", "élő chat", "chat live", "chat trực tuyến", "แชทสด", "צ'אט חי"},
	"language-learning": {"språklæring", "lære språk", "kielten opiskelu", "nyelvtanulás", "învățarea limbilor",
		"học ngoại ngữ", "เรียนภาษา", "belajar bahasa", "לימוד שפות"},
	"note-taking": {"notater", "muistiinpano*", "jegyzetel*", "notițe", "ghi chú", "จดโน้ต", "aplikasi catatan", "פתקים"},
}

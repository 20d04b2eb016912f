"""Faithful summaries of ordinary meetings, calls and documents (English and Indonesian).

Written for the offline judge's tests: every summary states only what its source says,
in the ways people write (numbers as words or digits, spelled-out codes, units and their
abbreviations, paraphrased negations, names with apostrophes and titles, markdown
sections and tables), and the sources come as people have them (WebVTT, SRT, timestamped
lines, prose). The offline judge must find no evidence against any of them.
"""

from __future__ import annotations

from typing import NamedTuple


class Faithful(NamedTuple):
    """One source and a faithful summary of it."""

    id: str
    source: str
    summary: str


SUPPORT_CALL_EN = Faithful(
    "en-support-call-broadband",
    "Agent: Good morning, you're through to Lintas Broadband support, this is Dana. How can I "
    "help?\n"
    "Customer: Hi Dana, my name is Aoife O'Donnell. My internet has been dropping out for "
    "about fourteen days now.\n"
    "Agent: I'm sorry to hear that, Ms O'Donnell. Can I have your account number, please?\n"
    "Customer: Sure, it's N L 5 5 0 2 9 8 1.\n"
    "Agent: Thank you. I can see you're on the two hundred megabits per second plan, but the "
    "line is only syncing at forty-one megabits.\n"
    "Customer: Forty-one? That explains a lot. I work from home three days a week.\n"
    "Agent: It looks like a fault at the street cabinet. I'll book an engineer visit for "
    "Thursday between eight and twelve.\n"
    "Customer: Will I have to pay for the visit?\n"
    "Agent: No, there won't be any charge, because the fault is on our side. I'll also add a "
    "credit of fifteen pounds to your next bill.\n"
    "Customer: That's great, thank you.\n"
    "Agent: You're welcome. You'll get a text confirming the appointment within the hour.\n",
    "Aoife O'Donnell called Lintas Broadband because her internet had been dropping out for "
    "14 days. Her account is NL5502981. She pays for the 200 Mbps plan, but the line syncs "
    "at only 41 Mbps. The agent, Dana, found a fault at the street cabinet and booked an "
    "engineer visit for Thursday between 8 and 12. There is no charge for the visit, and a "
    "£15 credit will be added to her next bill. A text will confirm the appointment.",
)

POLICY_MEMO_EN = Faithful(
    "en-policy-memo-travel",
    "Memo: updated travel policy\n\n"
    "From the first of March, all staff travel must be booked through the company portal. "
    "Economy class is the default for flights under six hours. For longer flights, premium "
    "economy may be booked with a manager's approval. The daily meal allowance rises from "
    "forty to fifty-five dollars. Hotel bookings are capped at one hundred and eighty dollars "
    "a night in most cities and two hundred and fifty dollars in London, New York and Tokyo. "
    "Receipts must be submitted within thirty days of the trip. Claims without receipts will "
    "not be reimbursed. Questions go to Siobhan D'Souza in Finance.\n",
    "## Travel policy changes\n\n"
    "- From 1 March, all travel is booked through the company portal.\n"
    "- **Flights:** economy for flights under 6 hours; premium economy for longer flights "
    "with a manager's approval.\n"
    "- **Meals:** the daily allowance rises from $40 to $55.\n\n"
    "| City | Hotel cap per night |\n"
    "|---|---|\n"
    "| Most cities | $180 |\n"
    "| London, New York and Tokyo | $250 |\n\n"
    "**Receipts:** due within 30 days; claims without them are not reimbursed. Questions go "
    "to Siobhan D'Souza in Finance.",
)

MEETING_VTT_EN = Faithful(
    "en-meeting-webvtt",
    "WEBVTT\n\n"
    "1\n00:00:01.000 --> 00:00:06.500\n<v Priya Raman>Morning everyone, let's start the "
    "launch review for the Harbour app.</v>\n\n"
    "2\n00:00:07.000 --> 00:00:15.000\n<v Priya Raman>We're aiming to ship version two point "
    "four on the twenty-first of May.</v>\n\n"
    "3\n00:00:15.500 --> 00:00:24.000\n<v Liam O'Brien>Testing is nearly done. We closed "
    "thirty-two bugs last week and there are five left, none of them critical.</v>\n\n"
    "4\n00:00:24.500 --> 00:00:33.000\n<v Mei-Ling Chen>Marketing is ready. The campaign "
    "budget is twelve thousand dollars and the landing page goes live on the twentieth.</v>"
    "\n\n"
    "5\n00:00:33.500 --> 00:00:41.000\n<v Priya Raman>Good. Liam, can you send the release "
    "notes to support by Friday?</v>\n\n"
    "6\n00:00:41.500 --> 00:00:45.000\n<v Liam O'Brien>Yes, I'll send them on Friday.</v>\n\n"
    "7\n00:00:45.500 --> 00:00:53.000\n<v Mei-Ling Chen>One more thing: we won't run paid "
    "ads in Germany until the translation is reviewed.</v>\n",
    "**Launch review (Harbour app)**\n\n"
    "Priya Raman leads the review. Version 2.4 is planned for 21 May. Liam O'Brien reports "
    "that 32 bugs were closed last week and 5 remain, none critical. Mei-Ling Chen says "
    "marketing is ready, with a campaign budget of $12,000 and the landing page going live "
    "on the 20th. Paid ads in Germany will not run until the translation is reviewed.\n\n"
    "**Action items**\n"
    "- Liam O'Brien: send the release notes to support by Friday.",
)

SALES_SRT_EN = Faithful(
    "en-sales-call-srt",
    "1\n00:00:00,500 --> 00:00:04,000\nRep: Thanks for taking the call, Mr Okafor.\n\n"
    "2\n00:00:04,200 --> 00:00:10,000\nClient: No problem. We need storage for about "
    "half a terabyte of scans, maybe a dozen users.\n\n"
    "3\n00:00:10,500 --> 00:00:17,000\nRep: Our team plan covers twelve users with one "
    "terabyte for ninety-nine dollars a month.\n\n"
    "4\n00:00:17,500 --> 00:00:22,000\nClient: Is there a setup fee?\n\n"
    "5\n00:00:22,500 --> 00:00:28,000\nRep: There's no setup fee, and the first month is "
    "free.\n\n"
    "6\n00:00:28,500 --> 00:00:33,000\nClient: Good. Send me the contract and I'll sign it "
    "next week.\n",
    "Mr Okafor needs storage for about 0.5 TB of scans for roughly 12 users. The rep offered "
    "the team plan: 12 users and 1 TB for $99 a month, with no setup fee and the first month "
    "free. The client will sign the contract next week once it is sent.",
)

IDENTICAL_EN = Faithful(
    "en-identical-to-source",
    "The library will close at 6 pm on Fridays from next month. Weekend hours stay the same. "
    "The change saves about 300 staff hours a year.",
    "The library will close at 6 pm on Fridays from next month. Weekend hours stay the same. "
    "The change saves about 300 staff hours a year.",
)

SUPPORT_CALL_ID = Faithful(
    "id-support-call-tagihan",
    "[00:00:02] Agen: Selamat siang, dengan Sari dari layanan pelanggan Nusantara Net. Ada "
    "yang bisa saya bantu?\n"
    "[00:00:08] Pelanggan: Siang, Mbak. Saya Bapak Hendra Wijaya. Tagihan saya bulan ini "
    "naik jadi tiga ratus dua puluh lima ribu rupiah, biasanya dua ratus lima puluh ribu.\n"
    "[00:00:20] Agen: Baik, Pak Hendra. Boleh saya minta nomor pelanggannya?\n"
    "[00:00:25] Pelanggan: Nomornya 8 8 1 2 0 4 7.\n"
    "[00:00:31] Agen: Terima kasih. Ada biaya tambahan untuk paket kuota lima puluh GB yang "
    "aktif tanggal dua belas.\n"
    "[00:00:40] Pelanggan: Saya tidak pernah mengaktifkan paket itu.\n"
    "[00:00:46] Agen: Baik, Pak. Paketnya saya nonaktifkan dan biaya tujuh puluh lima ribu "
    "akan dikembalikan dalam empat belas hari kerja. Tidak ada biaya pembatalan.\n"
    "[00:00:58] Pelanggan: Baik, terima kasih, Mbak Sari.\n",
    "Bapak Hendra Wijaya menelepon karena tagihannya naik menjadi Rp325.000, padahal "
    "biasanya Rp250.000. Nomor pelanggannya 8812047. Kenaikan berasal dari paket kuota 50 GB "
    "yang aktif tanggal 12, yang tidak pernah diaktifkan oleh Pak Hendra. Agen Sari "
    "menonaktifkan paket itu, dan biaya Rp75.000 dikembalikan dalam 14 hari kerja tanpa "
    "biaya pembatalan.",
)

MEETING_ID = Faithful(
    "id-rapat-gudang",
    "Ibu Ratna (Kepala Operasional): Selamat pagi. Kita bahas persiapan gudang baru di "
    "Bekasi.\n"
    "Pak Joko (Logistik): Pagi, Bu. Luas gudangnya dua ribu lima ratus meter persegi dan "
    "rak sudah terpasang sekitar setengahnya.\n"
    "Ibu Ratna (Kepala Operasional): Kapan bisa mulai beroperasi?\n"
    "Pak Joko (Logistik): Targetnya tanggal lima belas Juli, kalau forklift datang minggu "
    "depan.\n"
    "Dewi (Keuangan): Anggaran forklift Rp1,2 miliar sudah disetujui. Kita tidak perlu "
    "pinjaman tambahan.\n"
    "Ibu Ratna (Kepala Operasional): Bagus. Pak Joko, tolong kirim jadwal pemasangan rak "
    "yang tersisa paling lambat Jumat.\n"
    "Pak Joko (Logistik): Siap, Bu.\n",
    "## Rapat persiapan gudang Bekasi\n\n"
    "- Gudang baru seluas 2.500 meter persegi; sekitar separuh rak sudah terpasang.\n"
    "- Target operasional 15 Juli, jika forklift datang minggu depan.\n"
    "- **Anggaran:** forklift senilai 1,2 miliar rupiah sudah disetujui; tidak ada pinjaman "
    "tambahan.\n\n"
    "**Tindak lanjut**\n"
    "- Pak Joko mengirim jadwal pemasangan rak yang tersisa paling lambat Jumat.",
)

MEMO_ID = Faithful(
    "id-memo-cuti",
    "Mulai bulan depan, setiap karyawan mendapat dua belas hari cuti tahunan. Cuti yang "
    "tidak dipakai boleh dibawa ke tahun berikutnya paling banyak lima hari. Pengajuan cuti "
    "dilakukan lewat aplikasi SDM paling lambat tiga hari sebelumnya. Karyawan kontrak "
    "mendapat cuti yang sama setelah bekerja enam bulan. Pertanyaan dapat dikirim ke Ibu "
    "Maria Siregar di bagian SDM.\n",
    "Karyawan mendapat 12 hari cuti tahunan mulai bulan depan; sisa cuti bisa dibawa ke "
    "tahun berikutnya maksimal 5 hari. Cuti diajukan lewat aplikasi SDM paling lambat 3 hari "
    "sebelumnya. Karyawan kontrak mendapat hak yang sama setelah 6 bulan bekerja. Pertanyaan "
    "ke Bu Maria Siregar (SDM).",
)

SPRINT_ID_TABLE = Faithful(
    "id-sprint-tabel",
    "Andi: Oke, kita bagi tugas sprint ini.\n"
    "Budi: Saya ambil perbaikan halaman login, selesai hari Rabu.\n"
    "Citra: Saya yang update dokumentasi API, targetnya Kamis.\n"
    "Andi: Baik. Saya siapkan demo untuk klien hari Jumat. Ada yang keberatan?\n"
    "Budi: Tidak ada.\n",
    "### Pembagian tugas\n\n"
    "| Nama | Tugas | Tenggat |\n"
    "|:-----|:------|:-------:|\n"
    "| Budi | Perbaikan halaman login | Rabu |\n"
    "| Citra | Update dokumentasi API | Kamis |\n"
    "| Andi | Demo untuk klien | Jumat |\n\n"
    "Tidak ada yang keberatan.",
)

BRIEFING_EN = Faithful(
    "en-briefing-units",
    "The new delivery vans have a range of about 320 kilometres on a full charge and carry "
    "up to 900 kilograms. Charging takes 45 minutes at the depot's 150 kW chargers. The "
    "fleet will grow from 20 to 35 vans by the third quarter, at a cost of 2.1 million euros. "
    "Drivers will not need a new licence. About a third of the routes will switch in June.",
    "The new vans cover about 320 km per charge and carry up to 900 kg. They charge in 45 "
    "minutes on the depot's 150 kW chargers. The fleet grows from 20 to 35 vans by Q3, "
    "costing €2.1M. No new licence is needed for drivers, and roughly 33% of routes switch "
    "in June.",
)

BOARD_MEETING_EN = Faithful(
    "en-board-meeting-votes-and-tasks",
    "Helen Ward (Chair): Let's vote on the new parking policy. All in favour?\n"
    "Marcus Lee: I'm in favour.\n"
    "Sofia Reyes: In favour.\n"
    "Tom Becker: Against. I think it's too expensive.\n"
    "Helen Ward (Chair): So the motion passes six to one, with Tom against.\n"
    "Helen Ward (Chair): Next, the office move. We agreed not to move the office before "
    "March.\n"
    "Sofia Reyes: I'll draft the announcement for staff by Friday.\n"
    "Marcus Lee: Tom, can you get three quotes from removal companies?\n"
    "Tom Becker: Sure, I'll have them by next Wednesday.\n"
    "Helen Ward (Chair): The proposal to open a second site was rejected; we'll revisit it "
    "in the autumn.\n"
    "Marcus Lee: Extended parking for visitors is not offered any more.\n",
    "**Decisions**\n"
    "- The parking policy passed six to one; Tom Becker voted against it as too expensive.\n"
    "- The office will not move before March; the move is on hold until then.\n"
    "- The proposal for a second site was rejected and will be revisited in the autumn.\n"
    "- Extended visitor parking is no longer offered.\n\n"
    "**Action items**\n"
    "- Sofia Reyes: draft the staff announcement by Friday.\n"
    "- Marcus asked Tom to get three quotes from removal companies; Tom will have them by "
    "next Wednesday.",
)

CORPUS: tuple[Faithful, ...] = (
    SUPPORT_CALL_EN,
    POLICY_MEMO_EN,
    MEETING_VTT_EN,
    SALES_SRT_EN,
    IDENTICAL_EN,
    SUPPORT_CALL_ID,
    MEETING_ID,
    MEMO_ID,
    SPRINT_ID_TABLE,
    BRIEFING_EN,
    BOARD_MEETING_EN,
)

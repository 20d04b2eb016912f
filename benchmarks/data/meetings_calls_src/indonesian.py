# ruff: noqa: E501
"""Indonesian meetings and calls (rapat dan panggilan layanan pelanggan)."""

from __future__ import annotations

from . import case

CASES = [
    case(
        "i01-rapat-harian-aplikasi",
        "meeting",
        "speaker",
        "id",
        """
Wulan: Selamat pagi semua. Kita mulai rapat harian. Bima dulu, ya.
Bima: Kemarin saya menyelesaikan halaman pembayaran dengan QRIS. Hari ini saya menulis tes otomatisnya. Tidak ada kendala.
Wulan: Bagus. Sari?
Sari: Saya masih memperbaiki bug notifikasi yang terkirim dua kali. Sekitar 1.200 pengguna menerima notifikasi ganda minggu lalu. Penyebabnya sudah ketemu, yaitu antrean yang diproses ulang setelah server restart. Perbaikannya siap direview hari Kamis.
Wulan: Apakah kita perlu minta maaf ke pengguna?
Sari: Menurut tim CS tidak perlu, karena tidak ada keluhan yang masuk. Jadi kita tidak mengirim pesan permintaan maaf.
Wulan: Oke. Dimas?
Dimas: Saya menyiapkan rilis versi 2.8 yang dijadwalkan tanggal 18. Kendalanya, sertifikat server staging kedaluwarsa hari Jumat.
Wulan: Bima, bisa tolong perpanjang sertifikatnya hari ini setelah tes selesai?
Bima: Bisa, nanti sore saya perpanjang dan saya kabari di grup.
Wulan: Satu keputusan: fitur mode gelap tidak masuk rilis 2.8. Kita tunda ke versi 2.9 karena desainnya belum disetujui.
Dimas: Baik, saya perbarui catatan rilisnya.
Wulan: Sari, tolong kirim laporan penyebab bug ke tim CS setelah perbaikannya digabung.
Sari: Siap.
""",
        """
Rapat harian tim aplikasi (Wulan, Bima, Sari, Dimas).

Bima sudah menyelesaikan halaman pembayaran QRIS dan hari ini menulis tes otomatisnya. Sari menemukan penyebab bug notifikasi ganda yang dialami sekitar 1.200 pengguna minggu lalu, yaitu antrean yang diproses ulang setelah server restart; perbaikannya siap direview hari Kamis. Permintaan maaf tidak dikirim ke pengguna karena menurut tim CS tidak ada keluhan. Rilis 2.8 dijadwalkan tanggal 18, dengan kendala sertifikat server staging yang kedaluwarsa hari Jumat.

**Keputusan:** mode gelap tidak masuk rilis 2.8 dan ditunda ke 2.9 karena desainnya belum disetujui.

**Tindak lanjut**
- Bima: memperpanjang sertifikat staging sore ini dan mengabari di grup.
- Dimas: memperbarui catatan rilis.
- Sari: mengirim laporan penyebab bug ke tim CS setelah perbaikan digabung.
""",
        owner_swap=(
            "- Bima: memperpanjang sertifikat staging",
            "- Dimas: memperpanjang sertifikat staging",
        ),
        decision_reversal=(
            "mode gelap tidak masuk rilis 2.8 dan ditunda ke 2.9 karena desainnya belum disetujui",
            "mode gelap tetap masuk rilis 2.8 dan tidak ditunda ke 2.9 walaupun desainnya belum disetujui",
        ),
        contradiction=(
            "Permintaan maaf tidak dikirim ke pengguna karena menurut tim CS tidak ada keluhan.",
            "Permintaan maaf dikirim ke pengguna karena menurut tim CS banyak keluhan.",
        ),
        new_number=("sekitar 1.200 pengguna", "sekitar 2.100 pengguna"),
        new_name=(
            "karena menurut tim CS tidak ada keluhan",
            "karena menurut Pak Hendra dari tim CS tidak ada keluhan",
        ),
        grammar=(
            "Bima sudah menyelesaikan halaman pembayaran QRIS dan hari ini menulis tes otomatisnya.",
            "Bima sudah selesai menyelesaikan itu halaman pembayaran QRIS dan hari ini dia tes otomatisnya menulis.",
        ),
    ),
    case(
        "i02-rapat-anggaran-kuartal",
        "meeting",
        "timestamped",
        "id",
        """
[00:00:05] Bu Ratna: Kita mulai rapat evaluasi anggaran kuartal ketiga divisi pemasaran. Pak Yoga, silakan angka utamanya.
[00:00:14] Pak Yoga: Realisasi belanja Rp2,1 miliar dari anggaran Rp2,4 miliar, jadi ada sisa sekitar Rp300 juta. Sisa terbesar dari pos acara, karena pameran di Surabaya dibatalkan.
[00:00:38] Bu Ratna: Bagaimana dengan iklan digital?
[00:00:41] Pak Yoga: Iklan digital terserap penuh, Rp900 juta, dan biaya per pelanggan baru turun 12 persen dibanding kuartal kedua.
[00:01:02] Mbak Citra: Untuk kuartal keempat saya usul sisa dana acara dipindahkan Rp200 juta ke iklan digital, karena hasilnya paling bagus.
[00:01:15] Bu Ratna: Ada yang keberatan?
[00:01:18] Pak Yoga: Tidak ada.
[00:01:20] Mas Fajar: Setuju, tapi saya minta Rp50 juta untuk riset pelanggan.
[00:01:28] Bu Ratna: Riset pelanggan belum bisa kuartal ini; kita bahas lagi di anggaran tahun depan. Jadi pemindahan Rp200 juta ke iklan digital disetujui. Kita juga tidak mengajukan tambahan anggaran ke direksi.
[00:01:47] Bu Ratna: Tindak lanjut: Pak Yoga mengirim revisi proyeksi kuartal keempat ke bagian keuangan paling lambat 10 Oktober. Mbak Citra menyiapkan rencana iklan digital untuk dana tambahan itu dalam dua minggu.
[00:02:03] Mbak Citra: Baik, Bu.
[00:02:05] Mas Fajar: Saya akan siapkan proposal riset untuk anggaran tahun depan.
""",
        """
## Evaluasi anggaran kuartal III divisi pemasaran

Realisasi belanja Rp2,1 miliar dari anggaran Rp2,4 miliar, sehingga tersisa sekitar Rp300 juta, terutama dari pos acara karena pameran di Surabaya dibatalkan. Iklan digital terserap penuh (Rp900 juta) dan biaya per pelanggan baru turun 12% dibanding kuartal II.

### Keputusan
- Rp200 juta dari sisa dana acara dipindahkan ke iklan digital untuk kuartal IV (tidak ada yang keberatan).
- Permintaan Mas Fajar sebesar Rp50 juta untuk riset pelanggan belum bisa dipenuhi kuartal ini; akan dibahas di anggaran tahun depan.
- Tidak ada pengajuan tambahan anggaran ke direksi.

### Tindak lanjut
- Pak Yoga mengirim revisi proyeksi kuartal IV ke bagian keuangan paling lambat 10 Oktober.
- Mbak Citra menyiapkan rencana iklan digital untuk dana tambahan dalam dua minggu.
- Mas Fajar menyiapkan proposal riset untuk anggaran tahun depan.
""",
        owner_swap=("- Pak Yoga mengirim revisi proyeksi", "- Mbak Citra mengirim revisi proyeksi"),
        decision_reversal=(
            "- Tidak ada pengajuan tambahan anggaran ke direksi.",
            "- Tambahan anggaran akan diajukan ke direksi.",
        ),
        contradiction=(
            "karena pameran di Surabaya dibatalkan",
            "walaupun pameran di Surabaya tetap berjalan",
        ),
        new_number=("turun 12% dibanding kuartal II", "turun 21% dibanding kuartal II"),
        new_name=(
            "karena pameran di Surabaya dibatalkan",
            "karena pameran Indocraft di Surabaya dibatalkan",
        ),
        grammar=(
            "Iklan digital terserap penuh (Rp900 juta) dan biaya per pelanggan baru turun 12% dibanding kuartal II.",
            "Iklan digital penuh terserap oleh (Rp900 juta) dan biaya per pelanggan baru itu yang turun 12% dibanding kuartal II.",
        ),
    ),
    case(
        "i03-keluhan-tagihan-internet",
        "call",
        "roles",
        "id",
        """
Agen: Selamat siang, layanan pelanggan NusaNet, dengan Rizky. Ada yang bisa saya bantu?
Pelanggan: Siang, Mas. Saya Ibu Lestari. Tagihan internet saya bulan ini Rp587.000, biasanya cuma Rp350.000.
Agen: Baik, Bu Lestari. Boleh saya minta nomor pelanggannya?
Pelanggan: 7 7 1 0 4 2 9 3.
Agen: Terima kasih, Bu. Ada dua hal. Pertama, masa promo 12 bulan Ibu berakhir tanggal 5, jadi harga naik ke tarif normal Rp450.000. Kedua, ada biaya kunjungan teknisi Rp137.000 tanggal 11.
Pelanggan: Teknisinya tidak pernah datang, Mas! Saya tunggu seharian.
Agen: Di catatan teknisi tertulis rumah kosong. Mohon maaf, Bu. Karena Ibu ada di rumah, biaya Rp137.000 itu saya batalkan.
Pelanggan: Terima kasih. Tapi Rp450.000 terlalu mahal buat saya.
Agen: Saya bisa tawarkan paket baru 12 bulan Rp375.000 per bulan dengan kecepatan yang sama. Untuk kembali ke Rp350.000 tidak bisa, Bu, promo itu sudah tidak tersedia.
Pelanggan: Rp375.000 tidak apa-apa. Saya ambil.
Agen: Sudah saya proses. Harga baru berlaku mulai tagihan berikutnya, dan Rp137.000 akan muncul sebagai potongan di tagihan yang sama. Tagihan bulan ini tetap dibayar Rp450.000.
Pelanggan: Baik. Ada konfirmasinya?
Agen: Saya kirim email konfirmasi hari ini, Bu.
""",
        """
Ibu Lestari menghubungi NusaNet karena tagihan internetnya bulan ini Rp587.000, padahal biasanya Rp350.000. Agen, Rizky, menjelaskan bahwa promo 12 bulan berakhir tanggal 5 sehingga harga naik ke tarif normal Rp450.000, dan ada biaya kunjungan teknisi Rp137.000 tanggal 11. Karena Ibu Lestari ada di rumah saat teknisi tidak datang, biaya Rp137.000 dibatalkan.

**Hasil**
- Ibu Lestari mengambil paket baru 12 bulan seharga Rp375.000 per bulan dengan kecepatan yang sama, berlaku mulai tagihan berikutnya. Kembali ke Rp350.000 tidak bisa karena promonya sudah tidak tersedia.
- Tagihan bulan ini tetap Rp450.000; Rp137.000 muncul sebagai potongan di tagihan berikutnya.
- Rizky mengirim email konfirmasi hari ini.
""",
        owner_swap=(
            "- Rizky mengirim email konfirmasi hari ini.",
            "- Ibu Lestari mengirim email konfirmasi hari ini.",
        ),
        decision_reversal=(
            "- Ibu Lestari mengambil paket baru 12 bulan",
            "- Ibu Lestari menolak paket baru 12 bulan",
        ),
        contradiction=(
            "Kembali ke Rp350.000 tidak bisa karena promonya sudah tidak tersedia.",
            "Rizky juga mengembalikannya ke Rp350.000 karena promonya masih tersedia.",
        ),
        new_number=("promo 12 bulan berakhir tanggal 5", "promo 12 bulan berakhir tanggal 15"),
        new_name=(
            "Agen, Rizky, menjelaskan",
            "Agen, Rizky, bersama supervisornya, Pak Anton, menjelaskan",
        ),
        grammar=(
            "Tagihan bulan ini tetap Rp450.000;",
            "Tagihan bulan ini tetap nya yang Rp450.000 itu dibayar oleh;",
        ),
    ),
    case(
        "i04-paket-salah-alamat",
        "call",
        "roles",
        "id",
        """
Nadia (Agen): Terima kasih sudah menghubungi KirimCepat, saya Nadia. Ada yang bisa dibantu?
Pak Hasan (Pelanggan): Paket saya statusnya sudah diterima, tapi saya tidak pernah menerimanya. Nomor resinya K C 8 8 2 0 1 5 4 3.
Nadia (Agen): Baik, Pak. Paket tercatat diterima hari Selasa pukul 15.20 dan dititipkan ke tetangga atas nama Bu Dewi.
Pak Hasan (Pelanggan): Tidak ada tetangga saya yang bernama Dewi. Alamat saya Jalan Melati nomor 8.
Nadia (Agen): Foto kurir menunjukkan rumah bernomor 18. Sepertinya paket salah alamat. Mohon maaf, Pak.
Pak Hasan (Pelanggan): Isinya sepatu seharga Rp1.250.000. Bagaimana kalau tidak ketemu?
Nadia (Agen): Saya buka laporan investigasi sekarang. Kurir akan kembali ke rumah nomor 18 besok untuk mengambil paketnya. Kalau dalam lima hari kerja paket tidak ditemukan, kami ganti sesuai nilai yang tercatat di resi, yaitu Rp1.250.000.
Pak Hasan (Pelanggan): Apakah ongkos kirimnya juga dikembalikan?
Nadia (Agen): Ongkos kirim tidak bisa dikembalikan, Pak, karena pengiriman tetap dilakukan. Tapi Bapak dapat voucher ongkir Rp25.000 untuk pengiriman berikutnya.
Pak Hasan (Pelanggan): Baik. Saya dikabari lewat apa?
Nadia (Agen): Lewat SMS setelah kurir kembali ke lokasi. Nomor laporannya INV-40218.
""",
        """
Pak Hasan menghubungi KirimCepat karena paket dengan resi KC88201543 berstatus diterima hari Selasa pukul 15.20 dan dititipkan ke "Bu Dewi", padahal tidak ada tetangganya yang bernama Dewi. Alamatnya Jalan Melati nomor 8, sedangkan foto kurir menunjukkan rumah nomor 18, sehingga Nadia menyimpulkan paket salah alamat.

- Nadia membuka laporan investigasi INV-40218; kurir kembali ke rumah nomor 18 besok untuk mengambil paket berisi sepatu seharga Rp1.250.000.
- Jika dalam lima hari kerja paket tidak ditemukan, KirimCepat mengganti Rp1.250.000 sesuai nilai di resi.
- Ongkos kirim tidak dikembalikan karena pengiriman tetap dilakukan, tetapi Pak Hasan mendapat voucher ongkir Rp25.000.
- Pak Hasan akan dikabari lewat SMS setelah kurir kembali ke lokasi.
""",
        owner_swap=(
            "- Nadia membuka laporan investigasi INV-40218;",
            "- Pak Hasan membuka laporan investigasi INV-40218;",
        ),
        decision_reversal=(
            "sehingga Nadia menyimpulkan paket salah alamat",
            "sehingga Nadia menyimpulkan paket sudah diantar ke alamat yang benar",
        ),
        contradiction=(
            "- Ongkos kirim tidak dikembalikan karena pengiriman tetap dilakukan, tetapi",
            "- Ongkos kirim dikembalikan penuh, dan selain itu",
        ),
        new_number=("voucher ongkir Rp25.000", "voucher ongkir Rp50.000"),
        new_name=(
            "paket berisi sepatu seharga Rp1.250.000",
            "paket berisi sepatu Adidas seharga Rp1.250.000",
        ),
        grammar=(
            "- Pak Hasan akan dikabari lewat SMS setelah kurir kembali ke lokasi.",
            "- Pak Hasan akan mengabari dikabari lewat SMS setelah kurir itu kembali nya ke lokasi.",
        ),
    ),
    case(
        "i05-rapat-warga-rt",
        "meeting",
        "webvtt",
        "id",
        """
WEBVTT

00:00:01.000 --> 00:00:09.000
<v Pak Bambang>Selamat malam, Bapak Ibu. Rapat warga RT 04 kita mulai. Yang hadir 31 dari 40 kepala keluarga, jadi sudah kuorum.

00:00:09.500 --> 00:00:20.000
<v Pak Bambang>Agenda utama: usulan memasang portal otomatis di pintu masuk gang. Biayanya Rp18 juta.

00:00:20.500 --> 00:00:32.000
<v Bu Sri>Dari kas RT ada Rp11 juta. Sisanya Rp7 juta berarti iuran tambahan sekitar Rp175.000 per kepala keluarga.

00:00:32.500 --> 00:00:43.000
<v Mas Andi>Saya setuju, karena bulan lalu ada dua motor hilang. Tapi iurannya bisa dicicil?

00:00:43.500 --> 00:00:52.000
<v Bu Sri>Bisa, boleh dicicil tiga kali tanpa tambahan biaya.

00:00:52.500 --> 00:01:05.000
<v Pak Bambang>Kita voting. Yang setuju portal dipasang bulan depan, silakan angkat tangan. Dua puluh lima. Yang tidak setuju? Empat. Abstain dua. Jadi usulan disetujui, 25 lawan 4.

00:01:05.500 --> 00:01:15.000
<v Pak Joko>Saya minta dicatat, saya tidak setuju karena khawatir ambulans susah masuk.

00:01:15.500 --> 00:01:26.000
<v Pak Bambang>Dicatat, Pak Joko. Portal akan dibuka otomatis untuk kendaraan darurat dan tidak dikunci pada siang hari.

00:01:26.500 --> 00:01:38.000
<v Pak Bambang>Tindak lanjut: Mas Andi mencari dua penawaran lagi dari vendor sebelum tanggal 20. Bu Sri mengedarkan surat iuran minggu ini.

00:01:38.500 --> 00:01:42.000
<v Bu Sri>Siap, Pak.
""",
        """
Rapat warga RT 04 dihadiri 31 dari 40 kepala keluarga (kuorum) dan membahas usulan portal otomatis di pintu masuk gang seharga Rp18 juta.

Kas RT menanggung Rp11 juta; sisa Rp7 juta dibagi menjadi iuran tambahan sekitar Rp175.000 per kepala keluarga, yang boleh dicicil tiga kali tanpa biaya tambahan. Mas Andi mendukung karena bulan lalu dua motor hilang.

**Hasil voting:** usulan memasang portal bulan depan **disetujui 25 lawan 4, dengan 2 abstain**. Pak Joko meminta keberatannya dicatat karena khawatir ambulans sulit masuk; portal akan terbuka otomatis untuk kendaraan darurat dan tidak dikunci pada siang hari.

**Tindak lanjut**
- Mas Andi mencari dua penawaran vendor lagi sebelum tanggal 20.
- Bu Sri mengedarkan surat iuran minggu ini.
""",
        owner_swap=(
            "- Mas Andi mencari dua penawaran vendor lagi",
            "- Pak Joko mencari dua penawaran vendor lagi",
        ),
        decision_reversal=(
            "**disetujui 25 lawan 4, dengan 2 abstain**",
            "**disetujui secara bulat oleh semua yang hadir**",
        ),
        contradiction=(
            "yang boleh dicicil tiga kali tanpa biaya tambahan",
            "yang harus dibayar sekaligus karena tidak boleh dicicil",
        ),
        new_number=(
            "sekitar Rp175.000 per kepala keluarga",
            "sekitar Rp225.000 per kepala keluarga",
        ),
        new_name=(
            "Mas Andi mendukung karena bulan lalu dua motor hilang.",
            "Mas Andi dan Pak Darto mendukung karena bulan lalu dua motor hilang.",
        ),
        grammar=(
            "Mas Andi mendukung karena bulan lalu dua motor hilang.",
            "Mas Andi dia mendukung karena bulan lalu itu motor dua yang hilang nya.",
        ),
    ),
    case(
        "i06-klaim-asuransi-motor",
        "call",
        "speaker",
        "id",
        """
Putri: Selamat pagi, layanan klaim Asuransi Sentosa, dengan Putri. Apakah Bapak dalam keadaan aman?
Pak Gunawan: Aman, Mbak. Motor saya ditabrak mobil dari belakang di lampu merah kemarin sore. Saya tidak luka.
Putri: Syukurlah. Boleh saya minta nomor polisnya?
Pak Gunawan: Nomor polis A S 5 5 0 3 9 1.
Putri: Terima kasih, Pak Gunawan. Polis Bapak all risk untuk motor Honda Vario dengan risiko sendiri Rp300.000 per kejadian. Apakah ada laporan polisi?
Pak Gunawan: Ada, saya sudah lapor ke polsek tadi pagi. Pengemudi mobilnya mengaku salah dan memberikan nomor teleponnya.
Putri: Bagus, Pak. Spakbor belakang dan lampu rem rusak, ya? Motornya masih bisa dipakai?
Pak Gunawan: Masih bisa jalan, tapi lampu remnya mati.
Putri: Sebaiknya jangan dipakai malam hari dulu. Saya jadwalkan survei di bengkel rekanan kami di Depok hari Sabtu jam 10 pagi.
Pak Gunawan: Apakah ada motor pengganti selama diperbaiki?
Putri: Mohon maaf, motor pengganti tidak termasuk dalam polis Bapak. Tapi biaya derek, kalau diperlukan, ditanggung sampai Rp500.000.
Pak Gunawan: Tidak perlu derek, saya bawa sendiri.
Putri: Baik. Nomor klaimnya KL-88120. Mohon unggah foto kerusakan dan surat laporan polisi lewat aplikasi hari ini. Saya akan menghubungi asuransi pengemudi mobil tersebut besok.
""",
        """
Pak Gunawan melaporkan ke Asuransi Sentosa bahwa motornya ditabrak mobil dari belakang di lampu merah kemarin sore; ia tidak luka. Ia sudah melapor ke polsek tadi pagi, dan pengemudi mobil mengaku salah serta memberikan nomor teleponnya.

Polisnya (AS550391) all risk untuk Honda Vario dengan risiko sendiri Rp300.000 per kejadian. Spakbor belakang dan lampu rem rusak; motor masih bisa jalan tetapi sebaiknya tidak dipakai malam hari karena lampu rem mati.

- Survei dijadwalkan di bengkel rekanan di Depok hari Sabtu pukul 10 pagi.
- Motor pengganti tidak termasuk dalam polis; biaya derek ditanggung sampai Rp500.000, tetapi tidak diperlukan.
- Pak Gunawan mengunggah foto kerusakan dan surat laporan polisi lewat aplikasi hari ini (nomor klaim KL-88120).
- Putri menghubungi asuransi pengemudi mobil besok.
""",
        owner_swap=(
            "- Putri menghubungi asuransi pengemudi mobil besok.",
            "- Pak Gunawan menghubungi asuransi pengemudi mobil besok.",
        ),
        decision_reversal=(
            "- Survei dijadwalkan di bengkel rekanan di Depok hari Sabtu pukul 10 pagi.",
            "- Survei di bengkel rekanan di Depok dibatalkan; tidak ada jadwal survei.",
        ),
        contradiction=(
            "- Motor pengganti tidak termasuk dalam polis;",
            "- Motor pengganti termasuk dalam polis;",
        ),
        new_number=("ditanggung sampai Rp500.000", "ditanggung sampai Rp750.000"),
        new_name=(
            "Survei dijadwalkan di bengkel rekanan di Depok",
            "Survei dijadwalkan di bengkel rekanan Jaya Motor di Depok",
        ),
        grammar=(
            "Spakbor belakang dan lampu rem rusak;",
            "Spakbor belakang dan lampu rem itu sudah yang rusak nya;",
        ),
    ),
]

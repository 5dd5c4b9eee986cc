import Foundation
@testable import RatesUpstream

/// Small PDF files made in the tests: one page of text in a Courier font (WinAnsiEncoding), its content
/// stream unencoded, without a cross-reference table (the reader does not need one), ending `%%EOF`.
enum PDFFixture {
    /// A line of text placed at `x`, `y`.
    struct Line {
        var x: Double
        var y: Double
        var text: String
    }

    /// The content stream that shows `lines`, each in its own `BT … ET`, as a hexadecimal string of Latin-1 bytes.
    static func content(_ lines: [Line]) -> String {
        lines.map { line in
            let hex = line.text.unicodeScalars.map { String(format: "%02X", min($0.value, 0xFF)) }.joined()
            return "BT /F1 10 Tf 1 0 0 1 \(line.x) \(line.y) Tm <\(hex)> Tj ET"
        }.joined(separator: "\n")
    }

    /// A one-page file whose page shows `content`; `font` is the font's dictionary, `catalog` the
    /// catalog's, `length` the content stream's `/Length` (its real length unless given).
    static func file(
        content: String, font: String = "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
        catalog: String = "<< /Type /Catalog /Pages 2 0 R >>", length: String? = nil
    ) -> [UInt8] {
        let stream = Array(content.utf8)
        var file = Array("%PDF-1.4\n".utf8)
        file += Array("1 0 obj\n\(catalog)\nendobj\n".utf8)
        file += Array("2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n".utf8)
        file += Array("3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>\nendobj\n".utf8)
        file += Array("4 0 obj\n<< /Length \(length ?? String(stream.count)) >>\nstream\n".utf8) + stream + Array("\nendstream\nendobj\n".utf8)
        file += Array("5 0 obj\n\(font)\nendobj\n".utf8)
        file += Array("trailer\n<< /Root 1 0 R /Size 6 >>\n%%EOF\n".utf8)
        return file
    }

    /// A one-page file showing `lines`.
    static func file(_ lines: [Line]) -> [UInt8] { file(content: content(lines)) }

    /// A zlib stream of `bytes` stored without compression (deflate's stored blocks), with its Adler-32.
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var index = 0
        repeat {
            let count = min(65535, bytes.count - index)
            let last: UInt8 = index + count >= bytes.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[index..<(index + count)]
            index += count
        } while index < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        out += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out
    }
}

/// One object of a PDF file's syntax (ISO 32000-1, 7.3): what ``PDFSyntax`` reads and ``PDFDocument`` resolves.
enum PDFObject: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case real(Double)
    /// A literal or hexadecimal string, as its bytes (escapes undone).
    case string([UInt8])
    /// A name, without its slash, `#xx` escapes undone (bytes read as Latin-1).
    case name(String)
    case array([PDFObject])
    case dictionary([String: PDFObject])
    /// An indirect reference, `N G R`.
    case reference(PDFReference)
    /// A stream: its dictionary and where its (still encoded) bytes are in the file.
    case stream([String: PDFObject], Range<Int>)

    /// The number of an integer or a real.
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    var integer: Int? { if case .integer(let value) = self { value } else { nil } }
    var name: String? { if case .name(let value) = self { value } else { nil } }
    var array: [PDFObject]? { if case .array(let value) = self { value } else { nil } }
    var reference: PDFReference? { if case .reference(let value) = self { value } else { nil } }

    /// The dictionary of a dictionary or of a stream.
    var dictionary: [String: PDFObject]? {
        switch self {
        case .dictionary(let value): value
        case .stream(let value, _): value
        default: nil
        }
    }
}

/// An indirect object's number and generation.
struct PDFReference: Hashable, Sendable, CustomStringConvertible {
    var number: Int
    var generation: Int

    var description: String { "\(number) \(generation) R" }
}

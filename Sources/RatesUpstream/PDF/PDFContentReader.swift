/// Reads the text a page's content stream shows (ISO 32000-1, 9.4): each `Tj`, `TJ`, `'` and `"` is one
/// ``PDFTextRun`` at the point where it starts, in the page's user space, after the text matrix (`BT`,
/// `Tm`, `Td`, `TD`, `T*`, `TL`) and the current transformation (`cm`, `q`, `Q`). Character and word
/// spacing (`Tc`, `Tw`), horizontal scaling (`Tz`), rise (`Ts`) and each code's width move the text
/// along as a viewer would. Everything else (paths, colours, images: inline images are skipped) is read
/// and passed over; form XObjects (`Do`) are not entered.
///
/// Bounded: at most ``maxOperations`` operators, ``maxOperands`` operands before one, ``maxSaved``
/// nested `q`, ``maxRuns`` runs.
struct PDFContentReader {
    static let maxOperations = 1_000_000
    static let maxOperands = 4096
    static let maxSaved = 64
    static let maxRuns = 100_000

    /// A 3×3 affine matrix `[a b 0; c d 0; e f 1]`, row vectors as the format writes them.
    struct Matrix {
        var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

        static let identity = Matrix()

        /// `self × other`: this transformation, then `other`.
        func then(_ other: Matrix) -> Matrix {
            Matrix(
                a: a * other.a + b * other.c, b: a * other.b + b * other.d, c: c * other.a + d * other.c, d: c * other.b + d * other.d,
                e: e * other.a + f * other.c + other.e, f: e * other.b + f * other.d + other.f)
        }

        func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (x * a + y * c + e, x * b + y * d + f) }

        static func translation(_ x: Double, _ y: Double) -> Matrix { Matrix(e: x, f: y) }
    }

    private struct State {
        var ctm = Matrix.identity
        var font = PDFFont.fallback
        var size = 0.0
        var charSpacing = 0.0
        var wordSpacing = 0.0
        var scale = 1.0
        var leading = 0.0
        var rise = 0.0
    }

    private var state = State()
    private var saved: [State] = []
    private var textMatrix = Matrix.identity
    private var lineMatrix = Matrix.identity
    private(set) var runs: [PDFTextRun] = []
    private var operations = 0

    /// The fonts of the page's resources, by resource name.
    let fonts: [String: PDFFont]

    init(fonts: [String: PDFFont]) { self.fonts = fonts }

    /// Reads `content` (a page's content streams, joined), adding its text runs to ``runs``.
    mutating func read(_ content: [UInt8]) throws(UpstreamDataError) {
        var syntax = PDFSyntax(content)
        var operands: [PDFObject] = []
        while true {
            let start = syntax.position
            guard let token = try syntax.nextToken(references: false) else { break }
            switch token {
            case .object(let object):
                operands.append(try syntax.complete(object, depth: 0))
                guard operands.count <= Self.maxOperands else { throw PDFSyntax.malformed("more than \(Self.maxOperands) operands before an operator", at: start) }
                continue
            case .arrayEnd, .dictionaryEnd:
                throw PDFSyntax.malformed("a closing bracket without its opening one in a content stream", at: start)
            case .keyword(let word):
                operations += 1
                guard operations <= Self.maxOperations else { throw .layout("PDF: more than \(Self.maxOperations) operators in a page's content") }
                if word == "BI" {
                    try skipInlineImage(&syntax)
                } else {
                    try perform(word, operands)
                }
                operands.removeAll(keepingCapacity: true)
            }
        }
    }

    private mutating func perform(_ word: String, _ operands: [PDFObject]) throws(UpstreamDataError) {
        let numbers = operands.compactMap(\.number)
        func matrix() -> Matrix? {
            guard numbers.count == 6, operands.count == 6 else { return nil }
            return Matrix(a: numbers[0], b: numbers[1], c: numbers[2], d: numbers[3], e: numbers[4], f: numbers[5])
        }
        switch word {
        case "q":
            guard saved.count < Self.maxSaved else { throw .layout("PDF: graphics states saved (q) more than \(Self.maxSaved) deep") }
            saved.append(state)
        case "Q":
            if let last = saved.popLast() { state = last }
        case "cm":
            if let m = matrix() { state.ctm = m.then(state.ctm) }
        case "BT":
            textMatrix = .identity
            lineMatrix = .identity
        case "ET":
            break
        case "Tf":
            guard operands.count == 2, let name = operands[0].name, let size = operands[1].number else { return }
            state.font = fonts[name] ?? .fallback
            state.size = size
        case "Tc": if let value = numbers.last { state.charSpacing = value }
        case "Tw": if let value = numbers.last { state.wordSpacing = value }
        case "Tz": if let value = numbers.last { state.scale = value / 100 }
        case "TL": if let value = numbers.last { state.leading = value }
        case "Ts": if let value = numbers.last { state.rise = value }
        case "Td", "TD":
            guard numbers.count == 2 else { return }
            if word == "TD" { state.leading = -numbers[1] }
            moveLine(numbers[0], numbers[1])
        case "Tm":
            if let m = matrix() {
                textMatrix = m
                lineMatrix = m
            }
        case "T*":
            moveLine(0, -state.leading)
        case "Tj":
            if case .string(let codes)? = operands.last { show([.string(codes)]) }
        case "'":
            moveLine(0, -state.leading)
            if case .string(let codes)? = operands.last { show([.string(codes)]) }
        case "\"":
            guard operands.count == 3, let word = operands[0].number, let character = operands[1].number, case .string(let codes) = operands[2] else { return }
            state.wordSpacing = word
            state.charSpacing = character
            moveLine(0, -state.leading)
            show([.string(codes)])
        case "TJ":
            if let items = operands.last?.array { show(items) }
        default:
            break
        }
    }

    private mutating func moveLine(_ x: Double, _ y: Double) {
        lineMatrix = Matrix.translation(x, y).then(lineMatrix)
        textMatrix = lineMatrix
    }

    /// Shows a `TJ` array's strings (a `Tj` is an array of one), moving by its numbers; one run.
    /// A number that moves the text on by a quarter of the size or more stands for a space.
    private mutating func show(_ items: [PDFObject]) {
        let start = textMatrix.then(state.ctm)
        let origin = start.apply(0, state.rise)
        var text = ""
        for item in items {
            switch item {
            case .string(let codes):
                text += state.font.text(codes)
                for code in codes {
                    let width = state.font.widths[Int(code)] / 1000 * state.size + state.charSpacing + (code == 0x20 ? state.wordSpacing : 0)
                    textMatrix = Matrix.translation(width * state.scale, 0).then(textMatrix)
                }
            case .integer, .real:
                let adjustment = item.number ?? 0
                textMatrix = Matrix.translation(-adjustment / 1000 * state.size * state.scale, 0).then(textMatrix)
                if adjustment <= -250, !text.isEmpty, text.last != " " { text += " " }
            default:
                break
            }
        }
        guard !text.isEmpty, runs.count < Self.maxRuns else { return }
        let end = textMatrix.then(state.ctm).apply(0, state.rise)
        let size = state.size * (start.c * start.c + start.d * start.d).squareRoot()
        runs.append(PDFTextRun(text: text, x: origin.x, y: origin.y, width: end.x - origin.x, fontSize: size))
    }

    /// Past an inline image: from `BI` through its `ID` data to the `EI` that ends it.
    private func skipInlineImage(_ syntax: inout PDFSyntax) throws(UpstreamDataError) {
        let start = syntax.position
        // The image's dictionary entries, up to `ID`.
        var entries = 0
        while true {
            guard let token = try syntax.nextToken(references: false) else { throw PDFSyntax.malformed("an inline image without ID", at: start) }
            if case .keyword("ID") = token { break }
            entries += 1
            guard entries <= 256 else { throw PDFSyntax.malformed("an inline image without ID", at: start) }
        }
        // The data, up to white space, `EI` and white space (or the end).
        var index = syntax.position + 1
        let bytes = syntax.bytes
        while index + 2 <= syntax.end {
            if bytes[index] == UInt8(ascii: "E"), bytes[index + 1] == UInt8(ascii: "I"), PDFSyntax.isWhitespace(bytes[index - 1]),
                index + 2 == syntax.end || PDFSyntax.isWhitespace(bytes[index + 2])
            {
                syntax.position = index + 2
                return
            }
            index += 1
        }
        throw PDFSyntax.malformed("an inline image without EI", at: start)
    }
}

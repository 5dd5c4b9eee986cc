import RatesCore

/// Text as HTML pages write it: character references, white space, grouped decimals and month names.
enum HTMLText {
    // MARK: - Character references

    /// The named references the pages use (and the common Latin-1 letters), by name.
    static let namedReferences: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "copy": "\u{00A9}", "reg": "\u{00AE}", "deg": "\u{00B0}", "middot": "\u{00B7}", "laquo": "\u{00AB}", "raquo": "\u{00BB}",
        "euro": "\u{20AC}", "pound": "\u{00A3}", "yen": "\u{00A5}", "cent": "\u{00A2}",
        "ndash": "\u{2013}", "mdash": "\u{2014}", "hellip": "\u{2026}", "lsquo": "\u{2018}", "rsquo": "\u{2019}",
        "ldquo": "\u{201C}", "rdquo": "\u{201D}", "times": "\u{00D7}",
        "Agrave": "\u{00C0}", "Aacute": "\u{00C1}", "Acirc": "\u{00C2}", "Atilde": "\u{00C3}", "Auml": "\u{00C4}", "Ccedil": "\u{00C7}",
        "Egrave": "\u{00C8}", "Eacute": "\u{00C9}", "Ecirc": "\u{00CA}", "Euml": "\u{00CB}", "Iacute": "\u{00CD}", "Icirc": "\u{00CE}",
        "Ntilde": "\u{00D1}", "Oacute": "\u{00D3}", "Ocirc": "\u{00D4}", "Ouml": "\u{00D6}", "Uacute": "\u{00DA}", "Ucirc": "\u{00DB}",
        "Uuml": "\u{00DC}", "szlig": "\u{00DF}",
        "agrave": "\u{00E0}", "aacute": "\u{00E1}", "acirc": "\u{00E2}", "atilde": "\u{00E3}", "auml": "\u{00E4}", "ccedil": "\u{00E7}",
        "egrave": "\u{00E8}", "eacute": "\u{00E9}", "ecirc": "\u{00EA}", "euml": "\u{00EB}", "iacute": "\u{00ED}", "icirc": "\u{00EE}",
        "iuml": "\u{00EF}", "ntilde": "\u{00F1}", "oacute": "\u{00F3}", "ocirc": "\u{00F4}", "ouml": "\u{00F6}", "uacute": "\u{00FA}",
        "ucirc": "\u{00FB}", "uuml": "\u{00FC}",
    ]

    /// `text` with its character references decoded: the named ones of ``namedReferences`` and numeric
    /// ones (`&#233;`, `&#xE9;`; a number that is no character gives U+FFFD). A reference without its
    /// `;` or of an unknown name stays as written.
    static func decodingReferences(_ text: String) -> String {
        guard text.unicodeScalars.contains("&") else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "&", let semicolon = scalars[index...].prefix(34).firstIndex(of: ";"), semicolon > index + 1,
                let decoded = reference(String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon])))
            else {
                result.append(scalars[index])
                index += 1
                continue
            }
            result.append(decoded)
            index = semicolon + 1
        }
        return String(result)
    }

    /// The character of the reference `name` (between `&` and `;`), or `nil` for none.
    private static func reference(_ name: String) -> Unicode.Scalar? {
        guard name.hasPrefix("#") else { return namedReferences[name] }
        let digits = name.dropFirst()
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            let hex = digits.dropFirst()
            value = !hex.isEmpty && hex.utf8.count <= 8 && hex.allSatisfy(\.isHexDigit) ? UInt32(hex, radix: 16) : nil
        } else {
            value = !digits.isEmpty && digits.utf8.count <= 10 && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? UInt32(digits) : nil
        }
        guard let value else { return nil }
        return value == 0 ? "\u{FFFD}" : Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    // MARK: - White space

    /// `text` with every run of white space (no-break and narrow no-break spaces too) made one space,
    /// and none at either end: what a browser shows of a cell.
    static func collapsed(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace || scalar == "\u{00A0}" || scalar == "\u{202F}" || scalar == "\u{FEFF}" {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    // MARK: - Months

    /// English month names and their three-letter abbreviations, French names (with and without
    /// accents) and Spanish abbreviations (`ENE`, `AGO`, `DIC`), any letter case: the month's number.
    static func month(_ name: some StringProtocol) -> Int? {
        monthNumbers[name.lowercased()]
    }

    private static let monthNumbers: [String: Int] = {
        let names: [[String]] = [
            ["january", "jan", "janvier", "ene", "enero"], ["february", "feb", "février", "fevrier", "febrero"],
            ["march", "mar", "mars", "marzo"], ["april", "apr", "avril", "abr", "abril"], ["may", "mai", "mayo"],
            ["june", "jun", "juin", "junio"], ["july", "jul", "juillet", "julio"], ["august", "aug", "août", "aout", "ago", "agosto"],
            ["september", "sep", "sept", "septembre", "septiembre", "set"], ["october", "oct", "octobre", "octubre"],
            ["november", "nov", "novembre", "noviembre"], ["december", "dec", "décembre", "decembre", "dic", "diciembre"],
        ]
        return Dictionary(uniqueKeysWithValues: names.enumerated().flatMap { index, month in month.map { ($0, index + 1) } })
    }()

    /// English weekday names, Monday first (ISO order).
    static let englishWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// The day of `day`, `month` (a name ``month(_:)`` knows) and `year` (four digits, or two for 20YY
    /// when `twoDigitYears` is set), each as written; `nil` unless all three make a real day.
    static func day(day: some StringProtocol, month: some StringProtocol, year: some StringProtocol, twoDigitYears: Bool = false) -> Day? {
        guard (1...2).contains(day.utf8.count), day.allSatisfy({ $0.isASCII && $0.isNumber }), let dayNumber = Int(day),
            let monthNumber = self.month(month),
            year.utf8.count == 4 || (twoDigitYears && year.utf8.count == 2), year.allSatisfy({ $0.isASCII && $0.isNumber }),
            let yearNumber = Int(year)
        else { return nil }
        return Day(year: year.utf8.count == 2 ? 2000 + yearNumber : yearNumber, month: monthNumber, day: dayNumber)
    }
}

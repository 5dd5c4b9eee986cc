import Foundation

/// The format of an answer of a route that offers several (``Route/negotiatesFormat``: v2's rates),
/// chosen by the request's `Accept`: JSON unless the client prefers NDJSON or CSV.
///
/// Each format is its own prepared answer (the cache key and the entity tag name it) and every
/// answer of such a route says `Vary: Accept`, so no cache hands one format to a client that asked for another.
enum AnswerFormat: String, Sendable {
    case json, ndjson, csv

    /// The media type sent.
    var contentType: String {
        switch self {
        case .json: "application/json"
        case .ndjson: "application/x-ndjson"
        case .csv: "text/csv; charset=utf-8"
        }
    }

    /// Whether `Accept` (all its values) names NDJSON or CSV at all, in any letter case, read from its
    /// bytes without allocating: the fast path answers JSON only and negotiates only when this holds
    /// (most clients send `application/json` or `*/*`).
    static func namesAnotherFormat(_ values: [String]) -> Bool {
        values.contains { value in
            let lowered = value.utf8.lazy.map { $0 | 0x20 }  // ASCII letters in lower case; no other byte becomes one
            return lowered.firstRange(of: "csv".utf8) != nil || lowered.firstRange(of: "ndjson".utf8) != nil
        }
    }

    /// The format `Accept` (all its values) prefers, by weight and then by order (RFC 9110 §12.5.1):
    /// `application/x-ndjson` (or `application/ndjson`), `text/csv`, or JSON for `application/json`,
    /// `application/*`, `*/*`, no header at all and anything else (v2 answers JSON then too).
    static func negotiated(_ values: [String]) -> AnswerFormat {
        var best: (format: AnswerFormat, weight: Double)?
        for value in values {
            for range in value.split(separator: ",") {
                let parameters = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let type = parameters.first else { continue }
                let format: AnswerFormat? = switch type {
                case "application/json", "application/*", "*/*": .json
                case "application/x-ndjson", "application/ndjson": .ndjson
                case "text/csv": .csv
                default: nil
                }
                let weight = parameters.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
                if let format, weight > 0, weight > (best?.weight ?? 0) { best = (format, weight) }
            }
        }
        return best?.format ?? .json
    }
}

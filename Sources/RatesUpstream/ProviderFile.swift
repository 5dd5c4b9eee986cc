import Foundation
import RatesCore

/// A provider's own published files on disk: answers its endpoint gave (as `Tests/Fixtures/<bank>/`
/// records them), read by the provider's adapter as a fetch reads them (`rates-relay import --provider KEY`).
///
/// An adapter reads an answer as the answer to one of its requests (``RatesProvider/parse(_:of:)``),
/// and a few need to know which: the CNB's text file or its yearly JSON, the NBU's XML or JSON,
/// the MNB's SOAP operation, the currency of a BCB file, the series of a FRED file. A file is
/// therefore read as the answer to each request the adapter makes (for its newest publication and
/// for the last week), each also without its subject (the currency, series or table it is for),
/// and must read alike under every request that reads it: a BCB file, which does not name its
/// currency, reads as every currency's and needs its subject: given (``read(_:provider:subjects:today:)``),
/// or taken from the file's name when it names exactly one (``subject(named:among:)``). A file with a
/// subject is read as the answer to that subject's requests only.
///
/// Several files are combined as a fetch combines its answers (``ProviderClient``): one
/// publication per day, the union of the files' figures. A provider whose publication of a day
/// spans several answers (the NBP's tables A and B) is read from all of them at once, since an
/// ingest replaces the provider's figures of each day it holds.
public enum ProviderFile {
    /// Reads `files` (each one answer's bytes) as answers of `provider`'s.
    ///
    /// - Parameters:
    ///   - subjects: What each file answers, in order, for providers with one request per currency
    ///     or series (`USD` for a BCB file, `DEXUSEU` for a FRED file; `nil` to let the file say);
    ///     empty to let every file say. Otherwise one per file.
    ///   - today: The day the requests tried are made on (UTC by the system clock unless given).
    /// - Returns: The files' publications, one per day in ascending order, parsed and checked as a fetch's are.
    /// - Throws: ``ProviderFileError``: no request's answer reads like a file, a file reads
    ///   differently under different requests, two files give one currency of one day different
    ///   figures, or they hold no publication.
    public static func read(
        _ files: [[UInt8]], provider: any RatesProvider, subjects: [String?] = [], today: Day = Day(containing: Date())
    ) throws(ProviderFileError) -> [ProviderPublication] {
        precondition(subjects.isEmpty || subjects.count == files.count, "one subject per file, or none")
        let parts = try files.enumerated().map { index, file throws(ProviderFileError) in
            try read(file, as: candidates(provider, subject: subjects.isEmpty ? nil : subjects[index], today: today), provider: provider)
        }
        let publications: [ProviderPublication]
        do {
            publications = try ProviderClient.combine(parts)
        } catch {
            throw .conflicting(provider: provider.key, error)
        }
        guard !publications.isEmpty else { throw .noPublication(provider: provider.key) }
        return publications
    }

    /// The one of `subjects` that `fileName` names as a word of its own (`USD` in
    /// `PTAX_CotacaoMoedaPeriodo_USD_2026-03-01.json`, `AUD` in `…codigoMoneda=AUD_fechaFin=…json`), or
    /// `nil` when it names none or several: how a file that does not say what it answers (a BCB, BCC or
    /// CBG answer of one currency) is imported without `--subject`, as recorded answers are named for
    /// their request.
    public static func subject(named fileName: String, among subjects: [String]) -> String? {
        let words = Set(fileName.split { !$0.isLetter && !$0.isNumber }.map(String.init))
        let named = subjects.filter(words.contains)
        return named.count == 1 ? named[0] : nil
    }

    /// One file read as the answer to each of `candidates`: what every request that reads it reads.
    static func read(_ bytes: [UInt8], as candidates: [ProviderRequest], provider: any RatesProvider) throws(ProviderFileError)
        -> [ProviderPublication]
    {
        var readings: [(request: ProviderRequest, publications: [ProviderPublication])] = []
        var reasons: [UpstreamDataError] = []
        for request in candidates {
            do {
                readings.append((request, try provider.parse(bytes, of: request)))
            } catch {
                if !reasons.contains(error) { reasons.append(error) }
            }
        }
        guard let first = readings.first else { throw .unreadable(provider: provider.key, reasons: reasons) }
        guard readings.allSatisfy({ $0.publications == first.publications }) else {
            var seen = Set<String>()
            throw .ambiguous(provider: provider.key, subjects: readings.compactMap(\.request.subject).filter { seen.insert($0).inserted })
        }
        return first.publications
    }

    /// The subjects of the requests a file may answer (``candidates(_:subject:today:)``), each once.
    static func subjects(of provider: any RatesProvider, today: Day) -> [String] {
        var seen = Set<String>()
        return requests(provider, today: today).compactMap(\.subject).filter { seen.insert($0).inserted }
    }

    /// The requests a file is read as the answer to, each once: with `subject` when one is given (the
    /// adapter's requests for that subject, or every request given it when none is), otherwise as the
    /// adapter makes them and without their subject.
    static func candidates(_ provider: any RatesProvider, subject: String?, today: Day) -> [ProviderRequest] {
        var requests = requests(provider, today: today)
        if let subject, requests.contains(where: { $0.subject == subject }) {
            requests.removeAll { $0.subject != subject }
        }
        var candidates: [ProviderRequest] = []
        var seen = Set<ProviderRequest>()
        for request in requests {
            for candidateSubject in subject == nil ? [nil, request.subject] : [subject] {
                var candidate = request
                candidate.subject = candidateSubject
                if seen.insert(candidate).inserted { candidates.append(candidate) }
            }
        }
        return candidates
    }

    /// The adapter's requests for its newest publication and for the last week.
    private static func requests(_ provider: any RatesProvider, today: Day) -> [ProviderRequest] {
        provider.requests(for: .latest) + provider.requests(for: .range(today.adding(days: -7), today))
    }
}

/// Why a file cannot be imported as a provider's.
public enum ProviderFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No request's answer reads like a file: each distinct reason the adapter gave.
    case unreadable(provider: String, reasons: [UpstreamDataError])
    /// Two files give one currency of one day different figures.
    case conflicting(provider: String, UpstreamDataError)
    /// The file reads as different data depending on the request it answers (a BCB file, which
    /// does not name its currency): the subjects it reads under.
    case ambiguous(provider: String, subjects: [String])
    /// The files read, but hold no publication (a holiday's empty answer).
    case noPublication(provider: String)

    public var description: String {
        switch self {
        case .unreadable(let provider, let reasons):
            let shown = reasons.prefix(3).map(\.description).joined(separator: "; or ")
            return "the file is not an answer of \(provider)'s that can be imported: \(shown.isEmpty ? "the adapter makes no request" : shown)"
        case .conflicting(let provider, let reason):
            return "the files of \(provider)'s contradict each other: \(reason)"
        case .ambiguous(let provider, let subjects) where subjects.isEmpty:
            return "the file reads as different data as different answers of \(provider)'s: it cannot be imported"
        case .ambiguous(let provider, let subjects):
            return "the file reads as \(provider)'s answer for any of \(subjects.joined(separator: ", ")): "
                + "name the one it answers with --subject"
        case .noPublication(let provider):
            return "the files are answers of \(provider)'s without any publication: nothing to import"
        }
    }
}

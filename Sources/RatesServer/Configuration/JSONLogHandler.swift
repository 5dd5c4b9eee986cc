import Foundation
import Logging
import NIOCore

/// A log handler writing one JSON object a line, for log collectors (`LOG_FORMAT=json`).
///
/// `{"time":"2026-11-22T18:00:00.123Z","level":"info","label":"rates-relay","message":"fetch finished",
/// "source":"RatesServer","metadata":{"hb.request.id":"…","rates.outcome":"updated"}}`
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    let label: String
    let write: @Sendable (String) -> Void

    /// A handler for `label` that passes each line (without its newline) to `write`.
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    /// A handler writing to standard error.
    public static func standardError(label: String) -> JSONLogHandler {
        JSONLogHandler(label: label) { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        write(String(buffer: JSONWriter.object { json in
            json.field("time", string: Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            json.field("level", string: event.level.rawValue)
            json.field("label", string: label)
            json.field("message", string: event.message.description)
            json.field("source", string: event.source)
            if !merged.isEmpty {
                json.field("metadata", object: { json in
                    for (key, value) in merged.sorted(by: { $0.key < $1.key }) { json.field(key, string: value.description) }
                })
            }
        }))
    }
}

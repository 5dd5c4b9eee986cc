/// One dispatched Server-Sent Event.
struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field, `message` when the event had none.
    var type: String
    /// The `data:` lines joined with `\n`.
    var data: String
    /// The last event ID seen so far (`id:`), empty when none.
    var lastEventID: String = ""
}

/// An incremental `text/event-stream` parser (WHATWG HTML, "Server-sent events", §9.2.6).
///
/// Feed it chunks as they arrive — a chunk may end anywhere, inside a line or between the CR
/// and LF of a CRLF — and it returns the events completed by each chunk. Lines end with CRLF,
/// LF or CR; lines starting with `:` are comments; a blank line dispatches the event being
/// built, unless it has no data; an unfinished event at the end of the stream is dropped.
struct ServerSentEventParser: Sendable {
    /// The last `id:` value (kept across events, as the spec says).
    private(set) var lastEventID = ""
    /// The server's last `retry:` advice.
    private(set) var reconnectionTime: Duration?
    /// Comment lines seen (keep-alives), for liveness checks.
    private(set) var commentCount = 0

    private var line: [UInt8] = []
    private var afterCR = false
    private var isFirstLine = true
    private var eventType = ""
    private var data = ""

    /// Parses `bytes`, returning the events they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"):
                if !afterCR { endLine(into: &events) }   // else the LF of a CRLF whose CR ended the line
                afterCR = false
            case UInt8(ascii: "\r"):
                afterCR = true
                endLine(into: &events)
            default:
                afterCR = false
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        var text = String(decoding: line, as: UTF8.self)
        line.removeAll(keepingCapacity: true)
        if isFirstLine {
            isFirstLine = false
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        }
        if text.isEmpty {
            dispatch(into: &events)
            return
        }
        if text.hasPrefix(":") {
            commentCount += 1
            return
        }
        // A line without a colon is a field with an empty value.
        let colon = text.firstIndex(of: ":") ?? text.endIndex
        let field = text[..<colon]
        var value = colon == text.endIndex ? "" : text[text.index(after: colon)...]
        if value.hasPrefix(" ") { value = value.dropFirst() }
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            data += value
            data += "\n"
        case "id":
            if !value.contains("\u{0}") { lastEventID = String(value) }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let milliseconds = Int(value) {
                reconnectionTime = .milliseconds(milliseconds)
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            data = ""
            eventType = ""
        }
        guard !data.isEmpty else { return }
        if data.hasSuffix("\n") { data.removeLast() }
        events.append(ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID))
    }
}

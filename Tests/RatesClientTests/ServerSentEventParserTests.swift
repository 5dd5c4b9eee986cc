import Foundation
import Testing
@testable import RatesClient

@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    /// Feeds `chunks` one after another and returns every event.
    func parse(_ chunks: [String]) -> (events: [ServerSentEvent], parser: ServerSentEventParser) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks { events += parser.feed(Array(chunk.utf8)) }
        return (events, parser)
    }

    @Test("the server's publication event is parsed, with retry advice and keep-alives skipped")
    func serverStream() {
        let (events, parser) = parse([
            "retry: 10000\n: connected\n\n: keep-alive\n\n",
            "event: publication\ndata: {\"epoch\":\"a1\",\"cursor\":\"djE\",\"latestDate\":\"2026-10-30\"}\n\n",
        ])
        #expect(events == [ServerSentEvent(type: "publication", data: #"{"epoch":"a1","cursor":"djE","latestDate":"2026-10-30"}"#)])
        #expect(parser.reconnectionTime == .milliseconds(10_000))
        #expect(parser.commentCount == 2)
    }

    @Test("CRLF, lone CR and LF all end lines")
    func lineEndings() {
        let (events, _) = parse(["event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\rdata: 3\n\n"])
        #expect(events.map(\.type) == ["a", "b", "message"])
        #expect(events.map(\.data) == ["1", "2", "3"])
    }

    @Test("a CRLF split between two chunks is one line break, not two")
    func crlfAcrossChunks() {
        let (events, _) = parse(["data: x\r", "\ndata: y\r", "\n\r", "\n"])
        #expect(events == [ServerSentEvent(type: "message", data: "x\ny")])
    }

    @Test("a line cut anywhere by chunk boundaries parses as if whole")
    func chunkBoundaries() {
        let stream = "event: publication\r\ndata: {\"cursor\":\"é€\"}\r\nid: 7\r\n\r\n"
        let whole = parse([stream]).events
        let bytes = Array(stream.utf8)
        // Every split point, including inside the multi-byte UTF-8 characters.
        for split in 1..<bytes.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(bytes[..<split]) + parser.feed(bytes[split...])
            #expect(events == whole, "split at \(split)")
        }
        // One byte at a time.
        var parser = ServerSentEventParser()
        #expect(bytes.flatMap { parser.feed([$0]) } == whole)
        #expect(whole == [ServerSentEvent(type: "publication", data: "{\"cursor\":\"é€\"}", lastEventID: "7")])
    }

    @Test("multi-line data joins with newlines; one leading space is removed, others kept")
    func multiLineData() {
        let (events, _) = parse(["data:first\ndata:  second\ndata\ndata: \n\n"])
        #expect(events == [ServerSentEvent(type: "message", data: "first\n second\n\n")])
    }

    @Test("comments, unknown fields and events without data dispatch nothing")
    func nothingToDispatch() {
        let (events, parser) = parse([": just a comment\n\n", "event: publication\n\n", "foo: bar\n\n", "retry: soon\n\n"])
        #expect(events.isEmpty)
        #expect(parser.reconnectionTime == nil)
    }

    @Test("the event type resets after each dispatch")
    func eventTypeResets() {
        let (events, _) = parse(["event: publication\ndata: 1\n\ndata: 2\n\n"])
        #expect(events.map(\.type) == ["publication", "message"])
    }

    @Test("an unfinished event at the end of the stream is not dispatched")
    func unfinishedEvent() {
        let (events, _) = parse(["data: complete\n\n", "event: publication\ndata: cut off\n"])
        #expect(events.map(\.data) == ["complete"])
    }

    @Test("a byte order mark at the start is ignored")
    func byteOrderMark() {
        let (events, _) = parse(["\u{FEFF}event: publication\ndata: x\n\n"])
        #expect(events.map(\.type) == ["publication"])
    }

    @Test("the last event ID carries over to later events")
    func lastEventID() {
        let (events, _) = parse(["id: 41\ndata: a\n\ndata: b\n\nid\ndata: c\n\n"])
        #expect(events.map(\.lastEventID) == ["41", "41", ""])
    }
}
